//! Engine panics as the web page sees them. In WebAssembly a panic aborts: it
//! ends in a trap (`RuntimeError: unreachable`) that carries no message, and
//! the trapped instance must not be used again. The panic hook is the last
//! moment the message exists, so it hands it to a JavaScript callback the
//! worker registered; the worker then reports the crash without calling back
//! into the trapped instance.

use std::any::Any;
use std::panic::Location;

/// One line naming what panicked and where: `index out of bounds (at core/src/queue/red.rs:120:9)`.
pub fn panic_report(payload: &(dyn Any + Send), location: Option<&Location<'_>>) -> String {
    let message = match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => *text,
        (None, Some(text)) => text.as_str(),
        (None, None) => "a panic without a text message",
    };
    match location {
        Some(at) => format!("{message} (at {}:{}:{})", at.file(), at.line(), at.column()),
        None => message.to_string(),
    }
}

#[cfg(target_arch = "wasm32")]
mod bindings {
    use std::cell::RefCell;
    use wasm_bindgen::prelude::*;

    thread_local! {
        /// The worker's callback; wasm32 runs one thread, and the hook only reads it.
        static REPORT: RefCell<Option<js_sys::Function>> = const { RefCell::new(None) };
    }

    /// From now on, call `report(message)` with the message of every engine
    /// panic, just before the trap that follows it.
    #[wasm_bindgen(js_name = onEnginePanic)]
    pub fn on_engine_panic(report: js_sys::Function) {
        REPORT.with(|slot| *slot.borrow_mut() = Some(report));
        std::panic::set_hook(Box::new(|info| {
            let message = super::panic_report(info.payload(), info.location());
            REPORT.with(|slot| {
                if let Ok(slot) = slot.try_borrow() {
                    if let Some(report) = slot.as_ref() {
                        // Nothing is left to do if reporting fails: the trap follows either way.
                        let _ = report.call1(&JsValue::NULL, &JsValue::from_str(&message));
                    }
                }
            });
        }));
    }

    /// Panic on purpose. The end-to-end test of the page's crash restart
    /// calls this; the page offers it only to tests that installed their hooks.
    #[wasm_bindgen(js_name = panicForTest)]
    pub fn panic_for_test() {
        panic!("injected by a test hook");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_formatted_panic_message_names_its_text_and_place() {
        let at = Location::caller();
        let payload: Box<dyn Any + Send> = Box::new(format!("queue {} overflowed", 3));
        let report = panic_report(payload.as_ref(), Some(at));
        assert_eq!(report, format!("queue 3 overflowed (at {}:{}:{})", at.file(), at.line(), at.column()));
        assert!(report.contains("wasm_panic.rs"), "{report}");
    }

    #[test]
    fn a_literal_panic_message_is_reported_as_written() {
        let payload: Box<dyn Any + Send> = Box::new("index out of bounds");
        assert_eq!(panic_report(payload.as_ref(), None), "index out of bounds");
    }

    #[test]
    fn a_panic_without_text_still_says_it_panicked() {
        let payload: Box<dyn Any + Send> = Box::new(42_u32);
        assert_eq!(panic_report(payload.as_ref(), None), "a panic without a text message");
    }

    #[test]
    fn a_real_panic_payload_is_read() {
        let caught = std::panic::catch_unwind(|| panic!("flow {} has no route", 7)).expect_err("the closure panics");
        assert_eq!(panic_report(caught.as_ref(), None), "flow 7 has no route");
    }
}
