import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { ChartActions } from './charts/chartActions';
import { EngineClient } from './engine/client';
import { chartExportActions } from './export/ChartExportButtons';
import './app/app.css';

// One engine worker for the page's lifetime.
const engine = new EngineClient();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Every chart on the page can be downloaded as SVG or PNG. */}
    <ChartActions value={chartExportActions}>
      <App engine={engine} />
    </ChartActions>
  </StrictMode>,
);
