# syntax=docker/dockerfile:1
# Three stages: the dependencies (only package*.json: a source change never recompiles better-sqlite3),
# the build (TypeScript and the bundle), and a slim runtime with what `start` and `contract` need.
# Checked without Docker by src/testing/dockerfile.test.ts (stages, copies, entrypoint) and `npm run lint:docker`.

# Dependencies: compiled once per lockfile change.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# No lifecycle scripts here (`prepare` builds from sources not yet copied); then the native module alone.
RUN npm ci --no-audit --no-fund --ignore-scripts \
  && npm rebuild better-sqlite3 esbuild

# Build: the sources, compiled and bundled (dist/).
FROM deps AS build
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY openapi ./openapi
COPY fixtures ./fixtures
COPY examples ./examples
COPY src ./src
COPY contract-tests ./contract-tests
RUN npm run build

# Runtime dependencies: production ones plus vitest (for `paysandbox contract`) with what they need by
# the lockfile, pruned offline; no compiler, no native build leftovers.
FROM deps AS runtime-deps
COPY scripts/runtime-deps.mjs ./scripts/
RUN node scripts/runtime-deps.mjs vitest \
  && (cd node_modules/better-sqlite3 && rm -rf deps src build/Release/obj build/Release/obj.target build/Release/.deps \
    build/Release/sqlite3.a build/Release/test_extension.node) \
  && rm -rf scripts

# Runtime: non-root, data on a volume, health check, SIGTERM closes the database.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PAYSANDBOX_HOST=0.0.0.0 \
    PAYSANDBOX_PORT=7070 \
    PAYSANDBOX_DB=/data/sandbox.db
WORKDIR /app
COPY --from=runtime-deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json tsconfig.json ./
COPY --from=build --chown=node:node /app/dist ./dist
COPY --chown=node:node openapi ./openapi
COPY --chown=node:node fixtures ./fixtures
# `paysandbox contract` runs the suite with vitest from these sources (it imports a few src/ modules).
COPY --chown=node:node contract-tests ./contract-tests
COPY --chown=node:node src ./src
# The recorded exchanges `paysandbox parity` replays by default (README: Parity with the real service).
COPY --chown=node:node parity ./parity
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 7070
# The check asks the port the server listens on: change it with -e PAYSANDBOX_PORT=…, not with --port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PAYSANDBOX_PORT||7070)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# A non-loopback listen needs SANDBOX_CONTROL_TOKEN, or PAYSANDBOX_INSECURE_CONTROL=1 when the port is
# published on the host's loopback only (docker run -p 127.0.0.1:7070:7070 …): README "Docker".
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["start"]
