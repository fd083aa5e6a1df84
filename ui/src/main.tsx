/**
 * The thread browser: a React app served at /ui by threadstore itself
 * (src/server/ui-route.ts). Routes: / (threads), /threads/:id (one thread; ?seq=<n> opens at
 * item n). Data comes through the typed client (client/src), live updates over graphql-ws.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter, Link, Route, Routes } from 'react-router';
import { SignIn } from './SignIn.js';
import { SessionProvider, useSession } from './session.js';
import { ThreadList } from './ThreadList.js';
import { ThreadView } from './ThreadView.js';
import './styles.css';

function Account() {
  const { session, signOut } = useSession();
  if (session.state !== 'signed-in') return null;
  const { viewer, hasToken } = session;
  const who = viewer.subject ? `${viewer.subject} · ${viewer.tenantId}` : viewer.tenantId;
  return (
    <div className="account">
      <span>
        {viewer.method === 'NONE' ? `No sign-in needed (tenant ${viewer.tenantId})` : who}
      </span>
      {hasToken ? (
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      ) : (
        <button type="button" onClick={signOut}>
          Sign in with a key
        </button>
      )}
    </div>
  );
}

function App() {
  const { session } = useSession();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link to="/" className="brand">
          threadstore
        </Link>
        <Account />
      </header>
      <main id="main" tabIndex={-1}>
        {session.state === 'checking' ? (
          <p aria-live="polite">Connecting…</p>
        ) : session.state === 'sign-in' ? (
          <SignIn message={session.message} />
        ) : (
          <Routes>
            <Route path="/" element={<ThreadList />} />
            <Route path="/threads/:threadId" element={<ThreadView />} />
            <Route path="*" element={<NotFound />} />
          </Routes>
        )}
      </main>
    </>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        <Link to="/">Back to the threads</Link>
      </p>
    </section>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter basename="/ui">
        <SessionProvider>
          <App />
        </SessionProvider>
      </BrowserRouter>
    </StrictMode>,
  );
}
