# Facturier in one image: the built server and SPA, Debian's Chromium and fonts for the PDFs, run as the unprivileged
# `node` user. Untested here (no Docker engine on the build machines): `docker build -t facturier .` then see compose.yaml.

# ---- build: install with the lockfile (the postinstall compiles the EN 16931 schematron), then build client + server
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 downloads its prebuilt binary from GitHub; where GitHub is out of reach it compiles, and node-gyp then
# takes Node's headers from the image (/usr/local/include/node) instead of downloading them from nodejs.org.
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

# ---- run
FROM node:20-bookworm-slim
# postgresql-client: `npm run backup` / `restore` wrap pg_dump / pg_restore when DATABASE_URL is postgres:// (15, as compose's).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core tini postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data
WORKDIR /app
# The whole tree, node_modules included: the operator commands (npm run migrate, plan, backup, restore, jobs:run) run
# through tsx, and the e-invoicing artefacts are read from src/server/einvoice/artefacts at run time.
COPY --from=build --chown=node:node /app /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/facturier.db \
    DATA_DIR=/data \
    CHROMIUM_PATH=/usr/bin/chromium
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:3000/api/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# tini forwards SIGTERM so that the server drains its requests and closes the database (README, Deploy).
ENTRYPOINT ["tini", "--"]
CMD ["node", "dist/server/main.js"]
