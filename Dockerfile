# syntax=docker/dockerfile:1
# A casino node's image: Node 24, the player app and the back office built, production
# dependencies only, run as the unprivileged `node` user. Configured entirely by the environment
# (docs/server.md); production refuses test parts (a sandbox's keys, CAPTCHA=off, plain http …).
# Not built on this project's machines — they cannot pull base images (docs/operations.md says what
# was run here and what was not).

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN node scripts/build.ts

FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATA_DIR=/var/lib/casino \
    LOG_FORMAT=json
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
 && mkdir -p /var/lib/casino && chown node:node /var/lib/casino
# What the server runs (it imports nothing else): its code, the contract, the protocols, the
# shared helpers, and the two built apps it serves.
COPY --from=build /app/dist ./dist
COPY server ./server
COPY services ./services
COPY protocols ./protocols
COPY lib ./lib
USER node
EXPOSE 8080
# Liveness; the load balancer checks readiness (/ready) itself.
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# SIGTERM drains (docs/operations.md): give it DRAIN_BOUND_SECONDS (20) before a SIGKILL.
STOPSIGNAL SIGTERM
CMD ["node", "server/main.ts"]
