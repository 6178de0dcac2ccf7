# Drover scheduler image: the Fastify scheduler run under tsx from source, exactly as in development.
# Build from the repository root (the build context): docker build -f docker/scheduler.Dockerfile -t drover-scheduler .

# --- build: dependencies exactly as locked ---------------------------------------------------------------------------
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

# --- runtime ---------------------------------------------------------------------------------------------------------
FROM node:20-bookworm-slim
ENV PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 \
    DROVER_HOST=0.0.0.0 \
    DROVER_PORT=7700 \
    DROVER_DATA_DIR=/var/lib/drover/scheduler/pglite
WORKDIR /app
COPY --from=build /app /app
# PGlite's data directory, used only when DATABASE_URL is not set. Mount a volume on /var/lib/drover/scheduler:
# the store's lock file (pglite.lock, beside the data directory) then lives on the volume too and keeps a second
# container off the same data.
RUN mkdir -p /var/lib/drover/scheduler && chown -R node:node /var/lib/drover
USER node
EXPOSE 7700
CMD ["node", "--import", "tsx", "apps/scheduler/src/main.ts"]
