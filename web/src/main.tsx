import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ChartActions } from './charts/chartActions';
import { EngineClient } from './engine/client';
import { chartExportActions } from './export/ChartExportButtons';
import { installTestHooks } from './engine/testHooks';
import './app/app.css';

// One engine client for the page's lifetime (it replaces its worker on a restart after a crash).
const engine = new EngineClient();
installTestHooks(engine);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Every chart on the page can be downloaded as SVG or PNG. */}
    <ChartActions value={chartExportActions}>
      <App engine={engine} />
    </ChartActions>
  </StrictMode>,
);
