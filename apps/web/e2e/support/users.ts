import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { ProductServer } from './product-server';

export interface TestUser {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  first_name: string;
}

let counter = 0;

/** A user nobody has registered yet (unique email per call). */
export function newUser(firstName = 'Ada'): TestUser {
  counter += 1;
  return {
    firstName,
    lastName: 'Lovelace',
    email: `${firstName.toLowerCase()}-${process.pid}-${Date.now()}-${counter}@example.com`,
    password: 'correct-horse-battery',
  };
}

async function postJson(server: ProductServer, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}api/${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Registers through the API (fast set-up for scenarios that are not about signing up). */
export async function registerViaApi(server: ProductServer, user: TestUser): Promise<Tokens> {
  const res = await postJson(server, 'register', {
    email: user.email,
    password: user.password,
    first_name: user.firstName,
    last_name: user.lastName,
  });
  expect(res.status, `register ${user.email}`).toBeLessThan(300);
  return (await res.json()) as Tokens;
}

/** Logs in through the API; the HTTP status tells whether the credentials are right. */
export async function loginViaApi(server: ProductServer, email: string, password: string) {
  return postJson(server, 'login', { email, password });
}

/**
 * Puts a session into the browser's storage the way a login leaves it (keys of spec §3), then
 * opens `route`.
 */
export async function openSignedIn(
  page: Page,
  server: ProductServer,
  tokens: Tokens,
  route = '',
): Promise<void> {
  await page.goto(`${server.url}about`);
  await page.evaluate((t) => {
    localStorage.setItem('accessToken', t.access_token);
    localStorage.setItem('refreshToken', t.refresh_token);
    localStorage.setItem('firstName', t.first_name);
  }, tokens);
  await page.goto(`${server.url}${route}`);
}

/** Registers a fresh user through the API and opens `route` signed in as them. */
export async function signedInAsNewUser(
  page: Page,
  server: ProductServer,
  route = '',
  firstName = 'Ada',
): Promise<{ user: TestUser; tokens: Tokens }> {
  const user = newUser(firstName);
  const tokens = await registerViaApi(server, user);
  await openSignedIn(page, server, tokens, route);
  return { user, tokens };
}

/** Signs in through the login screen. */
export async function logInViaUi(page: Page, server: ProductServer, email: string, pw: string) {
  if (!page.url().endsWith('/login')) await page.goto(`${server.url}login`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel(/^Password/).fill(pw);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** The path of the page relative to the base path, e.g. "login" or "" for the home. */
export function route(page: Page, server: ProductServer): string {
  const url = new URL(page.url());
  return url.pathname.slice(new URL(server.url).pathname.length);
}
