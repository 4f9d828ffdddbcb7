/** /machines: the Machines view alone, for a second screen. Signed in like the operator app. */
import { signal } from '@preact/signals';
import { render } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../operator/api.ts';
import { MachinesView } from './machines-view.tsx';

const auth = signal<'checking' | 'signed-out' | 'signed-in'>('checking');

function SignIn() {
  const [message, setMessage] = useState<string | null>(null);
  return (
    <form
      class="card"
      data-sign-in
      onSubmit={async (event) => {
        event.preventDefault();
        const key = new FormData(event.currentTarget).get('key');
        const answer = await api.signIn(String(key ?? ''));
        if (answer.ok) auth.value = 'signed-in';
        else setMessage(answer.message);
      }}
    >
      <h1>Machines · hud-automation</h1>
      <p>Sign in with the operator app's sign-in key (or open this page from the operator app).</p>
      <label>
        Sign-in key <input name="key" type="password" autocomplete="off" required />
      </label>{' '}
      <button type="submit" class="btn">
        Sign in
      </button>
      {message ? <p role="alert">{message}</p> : null}
    </form>
  );
}

function Page() {
  if (auth.value === 'checking') return <p role="status">Connecting to hud-automation…</p>;
  if (auth.value === 'signed-out') return <SignIn />;
  return (
    <main class="view" data-view="machines">
      <h1 class="sr-only">Machines</h1>
      <MachinesView />
    </main>
  );
}

const root = document.getElementById('app');
if (root) render(<Page />, root);
void api.authStatus().then((answer) => {
  auth.value = answer.ok && answer.signedIn ? 'signed-in' : 'signed-out';
});
