# syntax=docker/dockerfile:1
# Build stage: compile better-sqlite3 from source and the TypeScript sources.
FROM node:20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY openapi ./openapi
COPY fixtures ./fixtures
COPY examples ./examples
COPY scripts ./scripts
RUN npm ci --no-audit --no-fund \
  && npm prune --omit=dev

# Runtime stage: non-root, data on a volume, health check, SIGTERM closes the database.
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PAYSANDBOX_HOST=0.0.0.0 \
    PAYSANDBOX_PORT=7070 \
    PAYSANDBOX_DB=/data/sandbox.db
WORKDIR /app
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
COPY --from=build --chown=node:node /app/openapi ./openapi
COPY --from=build --chown=node:node /app/fixtures ./fixtures
COPY --from=build --chown=node:node /app/package.json ./package.json
# The recorded exchanges `paysandbox parity` replays by default (README: Parity with the real service).
COPY --chown=node:node parity ./parity
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 7070
# The check asks the port the server listens on: change it with -e PAYSANDBOX_PORT=…, not with --port.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PAYSANDBOX_PORT||7070)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# A non-loopback listen needs SANDBOX_CONTROL_TOKEN (or PAYSANDBOX_INSECURE_CONTROL=1).
ENTRYPOINT ["node", "dist/src/cli/main.js"]
CMD ["start"]
