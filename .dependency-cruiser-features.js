// Cycles between features (issue 38): the server's features alone, without their tests, one
// folder per feature. A feature folder that imports another, directly or round through others,
// must not be imported back by it. Run by `npm run lint` with .dependency-cruiser.js.
import base from './.dependency-cruiser.js';
const F = '^apps/server/src/features';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cycle-between-features',
      severity: 'error',
      scope: 'folder',
      from: { path: `${F}/([^/]+)` },
      to: { path: `${F}/[^/]+`, pathNot: `${F}/$1(/|$)`, circular: true },
    },
  ],
  options: {
    ...base.options,
    includeOnly: { path: `${F}/` },
    exclude: {
      path: '(node_modules|[.]mjs$|[.]test[.]ts$|[.]test-helper[.]ts$|test-helpers[.]ts$|fixtures|/testing[.]ts$)',
    },
  },
};
