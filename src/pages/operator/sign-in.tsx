/** The sign-in form of a page that has no session yet. */
import { useSignal } from '@preact/signals';
import { useId } from 'preact/hooks';
import { signIn } from './session.ts';
import { ErrorText } from './ui.tsx';

export function SignIn() {
  const key = useSignal('');
  const error = useSignal<string | null>(null);
  const busy = useSignal(false);
  const id = useId();
  return (
    <main class="sign-in" data-view="sign-in">
      <form
        class="sign-in__card"
        aria-labelledby={`${id}-title`}
        onSubmit={async (event) => {
          event.preventDefault();
          busy.value = true;
          error.value = await signIn(key.value.trim());
          busy.value = false;
        }}
      >
        <p class="brand">hud-automation</p>
        <h1 id={`${id}-title`}>Operator sign-in</h1>
        <p class="muted">
          Open the sign-in address that <span class="nowrap">hud-automation</span> printed when it started, or
          paste its key here. <code class="nowrap">hud-automation app-url</code> prints it again.
        </p>
        <label class="field" for={`${id}-key`}>
          <span>Sign-in key</span>
          <input
            id={`${id}-key`}
            name="key"
            type="password"
            autoComplete="current-password"
            required
            // biome-ignore lint/a11y/noAutofocus: the page has one field and nothing else to do
            autoFocus
            value={key.value}
            onInput={(event) => {
              key.value = event.currentTarget.value;
            }}
          />
        </label>
        <ErrorText message={error.value} />
        <button type="submit" class="btn btn--primary" aria-busy={busy.value}>
          Sign in
        </button>
      </form>
    </main>
  );
}
