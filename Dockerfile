# Facturier in one image: the built server and SPA, production dependencies only, Debian's Chromium and fonts for the
# PDFs, run as the unprivileged `node` user, which owns /data and nothing else.
#
# The base is Node 24 LTS pinned by digest (node:24-bookworm-slim, 24.18.0): a rebuild gets the same bytes until the
# digest is changed here on purpose. To move to a newer Node 24 image: `docker pull node:24-bookworm-slim`, then
# `docker inspect --format '{{index .RepoDigests 0}}' node:24-bookworm-slim`, and replace the digest below.
ARG NODE_IMAGE=node:24-bookworm-slim@sha256:6f7b03f7c2c8e2e784dcf9295400527b9b1270fd37b7e9a7285cf83b6951452d

# ---- build: every dependency (the postinstall compiles the EN 16931 schematron), then the client, the server bundle and
# the operator commands (migrate, backup, restore…), bundled so that the image needs neither tsx nor TypeScript.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 downloads its prebuilt binary from GitHub; where GitHub is out of reach it compiles, and node-gyp then
# takes Node's headers from the image (/usr/local/include/node) instead of downloading them from nodejs.org.
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund && npm run build && npm run build:ops

# ---- production dependencies only: no install scripts but better-sqlite3's (the native module), compiled as above.
FROM ${NODE_IMAGE} AS production-dependencies
WORKDIR /app
ENV npm_config_nodedir=/usr/local
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm rebuild better-sqlite3

# ---- run
FROM ${NODE_IMAGE}
# postgresql-client: the backup and restore commands wrap pg_dump / pg_restore when DATABASE_URL is postgres:// (15, as
# compose's database).
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium fonts-liberation fonts-dejavu-core tini postgresql-client \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data && chown node:node /data
WORKDIR /app
# Owned by root and read-only for `node`: the process can write its data folder, never its own code.
COPY --from=production-dependencies /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist ./dist
# Read at run time: the e-invoicing schemas and compiled schematrons, and the colour profile of Factur-X PDFs.
COPY --from=build /app/src/server/einvoice/artefacts ./src/server/einvoice/artefacts
COPY --from=build /app/src/server/einvoice/icc ./src/server/einvoice/icc
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=file:/data/facturier.db \
    DATA_DIR=/data \
    CHROMIUM_PATH=/usr/bin/chromium \
    MALLOC_ARENA_MAX=2
USER node
VOLUME /data
EXPOSE 3000
# On the port the process listens on, whatever PORT the operator sets.
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
# tini forwards SIGTERM so that the server drains its requests and closes the database (README, Deploy).
ENTRYPOINT ["tini", "--"]
# The same heap sizes as `npm start`, and MALLOC_ARENA_MAX above (scripts/server-node-flags.mjs says why).
CMD ["node", "--max-semi-space-size=2", "--max-old-space-size=1024", "dist/server/main.js"]
