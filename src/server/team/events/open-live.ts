/**
 * The live hub where the environment says: fan-out over PostgreSQL LISTEN/NOTIFY with
 * BASEBOARD_DATABASE_URL (several proxies, one stream of changes), else in this process. When
 * the upstream offers the service's own event extension, changes made there by other clients
 * are published too (service-events.ts).
 */
import type { Upstream } from "../../proxy/forward";
import { createLiveHub, liveOptionsFromEnv, type LiveHub } from "./live-hub";
import { createMemoryBus } from "./memory-bus";
import { createPostgresBus } from "./postgres-bus";
import { followServiceEvents } from "./service-events";

export async function openLive(env: NodeJS.ProcessEnv, deps: { log(line: string): void; upstream: Upstream }): Promise<LiveHub> {
  const options = liveOptionsFromEnv(env);
  const url = env.BASEBOARD_DATABASE_URL?.trim();
  const bus = url ? await createPostgresBus(url, { log: deps.log }) : createMemoryBus();
  let stopFollowing = () => {};
  const hub = createLiveHub({
    ...options,
    bus,
    log: deps.log,
    onFirstSubscriber: () => (stopFollowing = followServiceEvents({ upstream: deps.upstream, hub, log: deps.log })),
  });
  const close = hub.close;
  return {
    ...hub,
    async close() {
      stopFollowing();
      await close();
    },
  };
}
