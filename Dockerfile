# syntax=docker/dockerfile:1
# Inkwell's app server; the same image runs the jobs worker with another command (compose.yaml).
#   docker build -t inkwell .
# The web app is built in a stage of its own with every dependency; the server's production
# dependencies are installed alone in another; the final image holds only those, the sources the
# server runs (TypeScript, through tsx) and the built web app. It starts with node, not npm, as the
# unprivileged `node` user.

ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS manifests
# Native modules (better-sqlite3, argon2, node-llama-cpp) install prebuilt binaries; the compiler is
# for a platform none fits. Only the build stages have it.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY packages/contract/package.json packages/contract/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/

FROM manifests AS web
RUN npm ci --no-audit --no-fund
COPY tsconfig.base.json ./
COPY packages/contract packages/contract
COPY apps/web apps/web
RUN npm run build -w apps/web

FROM manifests AS server-deps
# npm nests a package under apps/server/node_modules where the workspace needs another version than
# the hoisted one (saxes 6 beside exceljs's saxes 5): the final stage copies that folder too.
RUN npm ci --omit=dev -w apps/server --no-audit --no-fund && mkdir -p apps/server/node_modules

FROM ${NODE_IMAGE}
# Page analysis renders pages in Debian's Chromium (layout and contrast rules; without it, it falls
# back to jsdom); the fonts draw Latin, Greek, Cyrillic, Arabic, Hebrew and CJK text in it and in
# exported PDFs. poppler-utils' pdftotext reads pdf text at native speed (without it, pdf.js does).
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium fonts-dejavu-core fonts-noto-cjk \
    poppler-utils \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium
WORKDIR /app
COPY package.json ./
COPY --from=server-deps /app/node_modules node_modules
COPY --from=server-deps /app/apps/server/node_modules apps/server/node_modules
COPY packages/contract packages/contract
COPY apps/server apps/server
COPY --from=web /app/apps/web/dist apps/web/dist
# DATA_DIR keeps the mail outbox and the model cache; a volume mounted here takes this owner.
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/health`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--import", "tsx", "apps/server/src/server.ts"]
