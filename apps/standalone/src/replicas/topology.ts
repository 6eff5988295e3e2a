import type { ServiceName } from "../serve/index.ts";

// npm run start:replicas: two replicas of every service behind haproxy on
// one machine (contract section 16), the Kubernetes topology in miniature.
// The balancer listens where start:services' processes would (PORT,
// REGISTRY_PORT, AUTH_PORT, USERS_PORT) and the replicas on ports of their own.

/** The balanced services, in start order (the confirmation workers are consumers: nothing is balanced to them). */
export const BALANCED = ["registry", "auth", "users", "gateway"] as const;
export type Balanced = (typeof BALANCED)[number];

export interface Replica {
  service: ServiceName;
  /** 1-based, per service. */
  index: number;
  port: number;
}

export interface Topology {
  /** Where the balancer listens for each service (the gateway's is the public port). */
  front: Record<Balanced, number>;
  replicas: Replica[];
}

/** The topology of `count` replicas of each service; `ports` are the replicas' own ports, in order. */
export function topology(front: Record<Balanced, number>, ports: number[], count = 2): Topology {
  const services: ServiceName[] = [...BALANCED, "confirmation-worker"];
  const need = services.length * count;
  if (ports.length < need) throw new Error(`${need} replica ports needed, got ${ports.length}`);
  const replicas = services.flatMap((service, s) =>
    Array.from({ length: count }, (_, i) => ({ service, index: i + 1, port: ports[s * count + i]! })),
  );
  return { front, replicas };
}

/** The environment of one replica: its own port, and every peer reached through the balancer. */
export function replicaEnv(t: Topology, r: Replica, host: string): Record<string, string> {
  const at = (service: Balanced) => `http://${host}:${t.front[service]}`;
  const own: Record<ServiceName, string> = {
    gateway: "PORT",
    registry: "REGISTRY_PORT",
    auth: "AUTH_PORT",
    users: "USERS_PORT",
    "confirmation-worker": "WORKER_PORT",
  };
  return {
    REGISTRY_URL: at("registry"),
    AUTH_URL: at("auth"),
    USERS_URL: at("users"),
    [own[r.service]]: String(r.port),
  };
}

/**
 * The haproxy configuration: TCP (layer 4, like a Kubernetes Service: it
 * retries nothing), round robin, each replica checked on GET /readyz every
 * `checkMs` and taken out at its first 503 (a draining replica says so for
 * SHUTDOWN_DELAY_S before it closes its port).
 */
export function haproxyConfig(t: Topology, bind: string, host: string, checkMs = 500): string {
  const lines = [
    "# Written by npm run start:replicas (apps/standalone/src/replicas): do not edit.",
    "global",
    "  maxconn 4096",
    "defaults",
    "  mode tcp",
    "  timeout connect 2s",
    "  timeout client 120s",
    "  timeout server 120s",
    "  retries 0",
  ];
  for (const service of BALANCED) {
    lines.push(
      `listen ${service}`,
      `  bind ${bind}:${t.front[service]}`,
      "  balance roundrobin",
      "  option httpchk",
      "  http-check send meth GET uri /readyz ver HTTP/1.1 hdr host localhost",
      "  http-check expect status 200",
      `  default-server check inter ${checkMs} fall 1 rise 1`,
    );
    for (const r of t.replicas.filter((x) => x.service === service))
      lines.push(`  server ${service}-${r.index} ${host}:${r.port}`);
  }
  return lines.join("\n") + "\n";
}
