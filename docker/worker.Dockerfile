# Drover worker image: the worker daemon under tsx from source, Debian's Chromium, and the repository's node
# packages built into dist/cwx (installed into the packages volume at start by docker/worker-entrypoint.sh).
# Build from the repository root (the build context): docker build -f docker/worker.Dockerfile -t drover-worker .

# --- build: dependencies exactly as locked, then the .cwx packages ---------------------------------------------------
FROM node:20-bookworm-slim AS build
ENV CI=true \
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
# npm rather than corepack: corepack's signature check has broken pnpm downloads on some Node 20 releases.
RUN npm install -g pnpm@9.15.9
WORKDIR /app
# Only the lockfile decides what is fetched, so this layer is reused until pnpm-lock.yaml changes.
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
RUN node --import tsx scripts/build-packages.ts

# --- runtime ---------------------------------------------------------------------------------------------------------
FROM node:20-bookworm-slim
# Chromium from Debian; Playwright never downloads a browser (the worker launches DROVER_CHROMIUM_PATH with
# --no-sandbox and --disable-dev-shm-usage, so neither extra privileges nor a bigger /dev/shm are needed).
RUN apt-get update \
    && apt-get install -y --no-install-recommends chromium fonts-liberation ca-certificates \
    && rm -rf /var/lib/apt/lists/*
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    DROVER_CHROMIUM_PATH=/usr/bin/chromium \
    DROVER_WORKER_DATA_DIR=/var/lib/drover/worker \
    DROVER_PACKAGES_DIR=/var/lib/drover/worker/packages
WORKDIR /app
COPY --from=build /app /app
# Created here, owned by `node`, so a named volume mounted on the packages directory starts out writable.
RUN mkdir -p /var/lib/drover/worker/packages && chown -R node:node /var/lib/drover
USER node
ENTRYPOINT ["sh", "/app/docker/worker-entrypoint.sh"]
