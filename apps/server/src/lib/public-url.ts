import type { Config } from '../config';

/** The web app's public address with its base path, e.g. https://inkwell.example.com/assistant/ */
export function publicAppUrl(config: Pick<Config, 'PUBLIC_URL' | 'PORT' | 'BASE_PATH'>): string {
  const origin = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');
  return `${origin}${config.BASE_PATH}`;
}
