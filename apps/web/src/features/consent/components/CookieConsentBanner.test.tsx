import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch, renderWithProviders } from '../../../test/utils';
import { CookieConsentBanner } from './CookieConsentBanner';

const ANALYTICS = 'https://analytics.example.com/script.js';
const analyticsScript = () => document.querySelector(`script[src="${ANALYTICS}"]`);

function api({ region = true }: { region?: boolean } = {}) {
  return mockFetch((req) => {
    if (req.path === 'region') return json(200, { country: region ? 'DE' : null });
    if (req.path === 'config')
      return json(200, { captcha: 'altcha', analyticsScriptUrl: ANALYTICS, promptLimit: 20 });
    return undefined;
  });
}

describe('CookieConsentBanner', () => {
  it('shows once the region lookup succeeded and no cookie exists; Accept stores the cookie and loads analytics', async () => {
    document.getElementById('analytics-script')?.remove();
    api();
    const user = userEvent.setup();
    renderWithProviders(<CookieConsentBanner />);
    const banner = await screen.findByRole('region', { name: 'Cookie consent' });
    expect(analyticsScript()).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(banner).not.toBeInTheDocument();
    expect(document.cookie).toContain('myAppCookieConsent=true');
    await waitFor(() => expect(analyticsScript()).not.toBeNull());
    analyticsScript()?.remove();
  });

  it('is not shown when the region is unknown', async () => {
    const fetchMock = api({ region: false });
    renderWithProviders(<CookieConsentBanner />);
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([u]) => String(u).includes('region'))).toBe(true),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
  });

  it('Decline hides the banner and never loads analytics', async () => {
    api();
    const user = userEvent.setup();
    renderWithProviders(<CookieConsentBanner />);
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(document.cookie).toContain('myAppCookieConsent=false');
    expect(analyticsScript()).toBeNull();
  });

  it('with a stored "true" loads analytics at startup, without a banner or a region lookup', async () => {
    document.cookie = 'myAppCookieConsent=true; path=/';
    const fetchMock = api();
    renderWithProviders(<CookieConsentBanner />);
    await waitFor(() => expect(analyticsScript()).not.toBeNull());
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('region'))).toBe(false);
    analyticsScript()?.remove();
  });
});
