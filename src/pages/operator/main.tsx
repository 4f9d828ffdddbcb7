import { render } from 'preact';
import { PANELS } from '../../protocol/index.ts';

function App() {
  return (
    <main>
      <h1>hud-automation</h1>
      <p>{PANELS.length} panels</p>
    </main>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
