/**
 * Who the thread browser acts as. The API key or token a person signs in with is kept in
 * sessionStorage (this tab only, gone when it closes) and sent as `Authorization: Bearer`;
 * it never goes into a URL. Without one the browser still works when the server lets
 * requests without credentials through (AUTH=optional on a loopback Host, or AUTH=none:
 * src/env.ts). A request refused with UNAUTHENTICATED (a token that expired) brings the
 * sign-in form back.
 */
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import {
  createClient,
  isThreadstoreError,
  type ThreadstoreClient,
  type Viewer,
} from '../../client/src/index.js';

const TOKEN_KEY = 'threadstore.token';

function storedToken(): string | null {
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export type SessionState =
  | { state: 'checking' }
  | { state: 'signed-in'; viewer: Viewer; client: ThreadstoreClient; hasToken: boolean }
  | { state: 'sign-in'; message: string | null };

interface Session {
  session: SessionState;
  /** Checks `token` with the server; keeps it when it is accepted. @returns an error message or null */
  signIn(token: string): Promise<string | null>;
  signOut(): void;
  /** Reports a failed request: UNAUTHENTICATED shows the sign-in form again. */
  onError(error: unknown): void;
}

const SessionContext = createContext<Session | null>(null);

/** The endpoint of the server that served this page. */
function endpoint(): string {
  return new URL('/graphql', window.location.href).toString();
}

function makeClient(token: string | null): ThreadstoreClient {
  return createClient({ url: endpoint(), getToken: () => token ?? storedToken() });
}

/** A person-readable message for any failure. */
export function describeError(error: unknown): string {
  if (isThreadstoreError(error)) return `${error.message} (${error.code})`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>({ state: 'checking' });

  const check = useCallback(async (token: string | null): Promise<string | null> => {
    const client = makeClient(token);
    try {
      const viewer = await client.viewer();
      if (token) sessionStorage.setItem(TOKEN_KEY, token);
      setSession({ state: 'signed-in', viewer, client, hasToken: Boolean(token) });
      return null;
    } catch (error) {
      await client.close();
      if (isThreadstoreError(error) && error.code === 'UNAUTHENTICATED') {
        return token
          ? `The server refused this key or token: ${error.message}`
          : 'This server needs an API key or a token.';
      }
      return describeError(error);
    }
  }, []);

  useEffect(() => {
    const token = storedToken();
    check(token).then((problem) => {
      if (problem) {
        if (token) sessionStorage.removeItem(TOKEN_KEY);
        setSession({ state: 'sign-in', message: problem });
      }
    });
  }, [check]);

  const value = useMemo<Session>(
    () => ({
      session,
      signIn: (token) => check(token.trim()),
      signOut() {
        sessionStorage.removeItem(TOKEN_KEY);
        if (session.state === 'signed-in') session.client.close().catch(() => undefined);
        setSession({ state: 'sign-in', message: null });
      },
      onError(error) {
        if (isThreadstoreError(error) && error.code === 'UNAUTHENTICATED') {
          sessionStorage.removeItem(TOKEN_KEY);
          setSession({ state: 'sign-in', message: `Signed out: ${error.message}` });
        }
      },
    }),
    [session, check],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in client (only rendered below a signed-in session). */
export function useClient(): ThreadstoreClient {
  const { session } = useSession();
  if (session.state !== 'signed-in') throw new Error('useClient while not signed in');
  return session.client;
}
