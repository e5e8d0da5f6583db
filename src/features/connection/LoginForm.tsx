/** Login form shown when the instance requires HTTP auth and the session is not confirmed. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { loginMutationOptions } from '../../api/login';

export function LoginForm() {
  const qc = useQueryClient();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const titleId = useId();
  const m = useMutation({
    ...loginMutationOptions(),
    // Everything fetched before the login failed with 401 (explorer, completions): refetch it all.
    // A request still in flight left without the session and will be answered 401 too, and
    // invalidating a query that has no data yet joins its fetch rather than starting another (the
    // explorer's retry then stayed an error): cancel what is in flight first, then refetch.
    onSuccess: async () => {
      await qc.cancelQueries();
      await qc.invalidateQueries();
    },
  });
  return (
    <div className="overlay">
      {/* Modal: the page behind it waits for the login. The SQL editor, whose code loads after
          this dialog shows, leaves the focus here (SqlEditor's onMount): what a user types goes
          into the login, not into the editor behind it. */}
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <form
          className="login"
          aria-label="Log in"
          onSubmit={(e) => {
            e.preventDefault();
            m.mutate({ username, password });
          }}
        >
          <h2 id={titleId}>Log in to the instance</h2>
          <p className="muted">This instance requires authentication.</p>
          <label>
            Username
            <input
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              autoComplete="username"
              required
              // The login dialog is all the page offers until it succeeds: start in its first field.
              // eslint-disable-next-line jsx-a11y/no-autofocus
              autoFocus
            />
          </label>
          <label>
            Password
            <input
              type="password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoComplete="current-password"
              required
            />
          </label>
          {m.isError && (
            <div className="error-banner" role="alert">
              {m.error.message}
            </div>
          )}
          <button className="btn primary" type="submit" disabled={m.isPending}>
            {m.isPending ? 'Logging in…' : 'Log in'}
          </button>
        </form>
      </div>
    </div>
  );
}
