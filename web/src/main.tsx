import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { EngineClient } from './engine/client';
import './app/app.css';

// One engine worker for the page's lifetime.
const engine = new EngineClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App engine={engine} />
  </StrictMode>,
);
