/** POST /api/login {username, password}: starts a session (cookie) when the instance requires auth. */
import { mutationOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { requestJson } from './http';
import { statusKeys } from './keys';

export interface LoginInput {
  username: string;
  password: string;
}

const LoginResponse = z.unknown();

export async function login(input: LoginInput, signal?: AbortSignal): Promise<void> {
  await requestJson('/api/login', LoginResponse, { method: 'POST', body: input, signal });
}

export function loginMutationOptions() {
  return mutationOptions({
    mutationKey: [...statusKeys.all, 'login'],
    mutationFn: (input: LoginInput) => login(input),
  });
}
