/** The sign-in form: an API key (tsk_...) or a JWT, checked with the server's `viewer`. */
import { type FormEvent, useId, useState } from 'react';
import { useSession } from './session.js';

export function SignIn({ message }: { message: string | null }) {
  const { signIn } = useSession();
  const [token, setToken] = useState('');
  const [problem, setProblem] = useState<string | null>(message);
  const [busy, setBusy] = useState(false);
  const inputId = useId();
  const hintId = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!token.trim()) {
      setProblem('Paste an API key or a token first.');
      return;
    }
    setBusy(true);
    setProblem(await signIn(token));
    setBusy(false);
  }

  return (
    <section className="sign-in" aria-labelledby="sign-in-title">
      <h1 id="sign-in-title">Sign in</h1>
      <form onSubmit={submit}>
        <label htmlFor={inputId}>API key or token</label>
        <input
          id={inputId}
          type="password"
          autoComplete="off"
          spellCheck={false}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-describedby={hintId}
          // biome-ignore lint/a11y/noAutofocus: the only field of the page
          autoFocus
        />
        <p id={hintId} className="hint">
          An API key (<code>tsk_…</code>, from <code>npm run keys -- create</code>) or a JWT of your
          identity provider. It is kept in this tab only (sessionStorage) until you sign out or
          close it.
        </p>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
      </form>
    </section>
  );
}
