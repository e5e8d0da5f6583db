/** POST /api/login {username, password}: starts a session (cookie) when the instance requires auth. */
import { mutationOptions } from '@tanstack/react-query';
import { LoginResponse } from '../../contract';
import { requestJson } from './http';
import { statusKeys } from './keys';

export interface LoginInput {
  username: string;
  password: string;
}

/**
 * Parsed with the success schema, so a 401/429 error body does not parse and surfaces as an
 * ApiError carrying the instance's message ("Wrong username or password").
 */
async function login(input: LoginInput, signal?: AbortSignal): Promise<LoginResponse> {
  return requestJson('/api/login', LoginResponse, { method: 'POST', body: input, signal });
}

export function loginMutationOptions() {
  return mutationOptions({
    mutationKey: [...statusKeys.all, 'login'],
    mutationFn: (input: LoginInput) => login(input),
  });
}
