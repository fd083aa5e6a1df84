# threadstore: build the TypeScript once, run the compiled JavaScript as a non-root user.
#   docker build -t threadstore --build-arg COMMIT=$(git rev-parse HEAD) .
#   docker run -p 4000:4000 -v threadstore-data:/data threadstore
# SQLite lives in the /data volume by default; set DATABASE_URL=postgresql://... (and
# REDIS_URL for several instances) to use PostgreSQL instead (see compose.yaml).

# ---- build: full install (postinstall generates the Prisma clients), compile, drop dev deps
FROM node:20-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# What `npm ci` and its postinstall (scripts/generate.mjs: prisma generate into src/generated/)
# read, and no more, so the install layer is reused until the lock file or a schema changes.
COPY package.json package-lock.json prisma.config.ts ./
COPY scripts/generate.mjs scripts/
COPY prisma/schema.prisma prisma/
COPY prisma/postgresql/schema.prisma prisma/postgresql/
RUN npm ci --no-audit --no-fund
# The rest of prisma/ (migrations), and the sources (.dockerignore keeps src/generated out).
COPY prisma prisma
COPY tsconfig.json tsconfig.build.json ./
COPY src src
# The thread browser (ui/, on the client in client/src) is built into ui/dist by npm run build.
COPY client/src client/src
COPY ui ui
COPY scripts/build.mjs scripts/build-ui.mjs scripts/
# The commit shown by /healthz (the build context has no .git): --build-arg COMMIT=$(git rev-parse HEAD)
ARG COMMIT=""
# dist/ holds the compiled clients, so the pruned node_modules needs no generate step; the
# prisma CLI stays (a dependency) but nothing runs it at run time.
RUN COMMIT="$COMMIT" npm run build \
 && npm prune --omit=dev --no-audit --no-fund

# ---- runtime: dist/, ui/dist/ (the thread browser at /ui), production node_modules, prisma/
# (migrations are applied at start)
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=4000 \
    DATABASE_URL=file:/data/threadstore.db
WORKDIR /app
# Root owns the code (read-only to the service); the service user owns only /data.
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/ui/dist ui/dist
COPY --from=build /app/prisma prisma
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 4000
# No curl in slim images: node's own fetch. /readyz answers 503 while stopping.
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node is PID 1 and handles SIGTERM itself (docker stop: drain, then exit 0).
CMD ["node", "dist/main.js"]
