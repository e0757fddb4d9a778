# AIR: one image, built from the repository root (`docker build -t air .`; compose.yaml uses it).
# Stage 1 compiles the server and the console with every dev dependency; stage 2 installs the
# server's run-time dependencies only; the last stage holds those plus the build and runs as the
# unprivileged `node` user. `npm run test:compose` builds it as it is (with Podman and local base
# images where no registry answers) and runs compose.yaml on it; apps/server/test/
# start-production.test.ts starts the server from the files the COPY lines below name, so keep them
# in the forms it reads.

FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:22-bookworm-slim AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
# The server workspace's own dependencies, without dev ones (no TypeScript loader, no Vite).
RUN npm ci --omit=dev --workspace apps/server --no-audit --no-fund

FROM node:22-bookworm-slim
WORKDIR /app
# DATA_DIR holds this instance's own state (the usage journal that keeps metered calls across a
# crash): outside the root-owned /app, owned by `node`, and a volume so it outlives the container.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data
RUN mkdir -p /data && chown node:node /data
# package files and node_modules (hoisted, and per workspace where npm kept some apart)
COPY --from=runtime-deps /app ./
COPY scripts/start.mjs ./scripts/
# `npm run cli -- ...` in the image runs the compiled CLI (apps/server/dist/cli.js) through this script.
COPY scripts/cli.mjs ./scripts/
COPY apps/server/drizzle ./apps/server/drizzle
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
USER node
VOLUME /data
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node runs as PID 1 and handles SIGTERM itself: `docker stop` is a graceful shutdown.
CMD ["node", "scripts/start.mjs"]
