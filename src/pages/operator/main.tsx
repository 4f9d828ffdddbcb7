import { render } from 'preact';
import { App } from './app.tsx';
import { checkSignIn } from './session.ts';

const root = document.getElementById('app');
if (root) render(<App />, root);
void checkSignIn();
