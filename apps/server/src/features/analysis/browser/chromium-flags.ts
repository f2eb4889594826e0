/**
 * Launch flags for every headless Chromium the project starts (the page analyser, the browser
 * suite): the machine's flags plus a host resolver that maps every name to nothing but loopback,
 * so the browser itself cannot reach the network. Kept free of imports so the web app's e2e
 * harness can share it without pulling server code into its type-check.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];
