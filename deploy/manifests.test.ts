import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { Deployment, type IDeployment } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Job, type IJob } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget, type IPodDisruptionBudget } from "kubernetes-models/policy/v1";
import {
  ConfigMap,
  Namespace,
  Secret,
  Service,
  type IConfigMap,
  type IContainer,
  type IPodSpec,
  type IService,
} from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

const here = import.meta.dirname;
const IMAGE = "ghcr.io/gatehouse/gatehouse";
const SERVICES = {
  gateway: { port: 8080, servicePort: 80 },
  registry: { port: 8081, servicePort: 8081 },
  auth: { port: 8082, servicePort: 8082 },
  users: { port: 8083, servicePort: 8083 },
};
// The confirmation worker has no RPC API: no Service, only its probe and metrics port.
const WORKER = { name: "confirmation-worker", port: 8084 };
const DEPLOYMENTS = [...Object.keys(SERVICES), WORKER.name];

// Every kind we ship, mapped to its schema model; an unlisted kind fails the suite.
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "batch/v1/Job": Job,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
};

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  [key: string]: unknown;
}

function validateObject(obj: K8sObject): void {
  const Model = MODELS[`${obj.apiVersion}/${obj.kind}`];
  if (!Model) throw new Error(`no schema model for ${obj.apiVersion} ${obj.kind}`);
  new Model(obj as never).validate();
}

function parseYamlStream(text: string, where: string): K8sObject[] {
  const out: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${where}: ${doc.errors[0]!.message}`);
    const value = doc.toJS() as K8sObject | null;
    if (value !== null) out.push(value);
  }
  return out;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return yamlFiles(path);
    return /\.ya?ml$/.test(name) ? [path] : [];
  });
}

const docs = yamlFiles(join(here, "k8s")).flatMap((file) =>
  parseYamlStream(readFileSync(file, "utf8"), file).map((obj) => ({ file: relative(here, file), obj })),
);
const kustomizations = docs.filter((d) => d.obj.kind === "Kustomization");
const manifests = docs.filter((d) => d.obj.kind !== "Kustomization");
const find = <T>(kind: string, name: string) =>
  manifests.find((d) => d.obj.kind === kind && d.obj.metadata.name === name)?.obj as T | undefined;
const baseKustomization = kustomizations.find((k) => k.file === "k8s/base/kustomization.yaml")!.obj as unknown as {
  namespace: string;
  resources: string[];
};

function expectHardened(pod: IPodSpec, container: IContainer) {
  expect(pod.securityContext?.runAsNonRoot).toBe(true);
  expect(pod.securityContext?.runAsUser).toBe(10001);
  expect(pod.securityContext?.seccompProfile?.type).toBe("RuntimeDefault");
  expect(pod.automountServiceAccountToken).toBe(false);
  expect(container.securityContext).toMatchObject({
    allowPrivilegeEscalation: false,
    readOnlyRootFilesystem: true,
    capabilities: { drop: ["ALL"] },
  });
  // The only writable path is /tmp, an emptyDir.
  const tmp = container.volumeMounts?.find((m) => m.mountPath === "/tmp");
  expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
  for (const kind of ["requests", "limits"] as const) {
    expect(Object.keys(container.resources?.[kind] ?? {}).sort(), kind).toEqual(["cpu", "memory"]);
  }
  expect(container.envFrom).toEqual([
    { configMapRef: { name: "gatehouse-config" } },
    { secretRef: { name: "gatehouse-secrets" } },
  ]);
  expect(container.image?.startsWith(`${IMAGE}:`)).toBe(true);
}

describe("kubernetes manifests", () => {
  it("parse into named objects", () => {
    expect(manifests.length).toBeGreaterThanOrEqual(21);
    for (const { file, obj } of manifests)
      expect([file, obj.apiVersion, obj.kind, obj.metadata?.name].every(Boolean), file).toBe(true);
  });

  it.each(manifests.map((d) => [`${d.file} ${d.obj.kind}/${d.obj.metadata.name}`, d.obj] as const))(
    "%s matches the Kubernetes schema",
    (_, obj) => {
      expect(() => validateObject(obj)).not.toThrow();
    },
  );

  it("the schema check rejects a broken Deployment and an unknown kind", () => {
    const good = structuredClone(find<K8sObject>("Deployment", "gateway")!);
    expect(() => validateObject(good)).not.toThrow();
    const broken = { ...good, spec: { ...(good.spec as object), replicas: "two" } };
    expect(() => validateObject(broken)).toThrow(/replicas must be integer/);
    expect(() => validateObject({ ...good, kind: "Deploymnet" })).toThrow(/no schema model/);
  });

  it("every kustomization resource exists and every base manifest is listed", () => {
    for (const { file, obj } of kustomizations) {
      for (const res of obj.resources as string[]) {
        const path = join(here, dirname(file), res);
        const ok = existsSync(path) && (statSync(path).isFile() || existsSync(join(path, "kustomization.yaml")));
        expect(ok, `${file}: ${res}`).toBe(true);
      }
    }
    const baseFiles = readdirSync(join(here, "k8s/base")).filter((f) => f !== "kustomization.yaml");
    expect(baseFiles.sort()).toEqual([...baseKustomization.resources].sort());
    expect(find("Namespace", baseKustomization.namespace)).toBeDefined();
  });

  describe.each(Object.entries(SERVICES))("%s", (name, { port, servicePort }) => {
    const deployment = find<IDeployment>("Deployment", name)!;
    const service = find<IService>("Service", name)!;
    const pod = deployment?.spec?.template.spec as IPodSpec;
    const container = pod?.containers[0] as IContainer;

    it("runs `serve <name>` with 2 hardened replicas", () => {
      expect(deployment.spec?.replicas).toBe(2);
      expect(container.args).toEqual(["serve", name]);
      expect(container.ports?.[0]?.containerPort).toBe(port);
      expectHardened(pod, container);
    });

    it("probes /readyz and /healthz on its own port", () => {
      const portName = container.ports?.[0]?.name;
      expect(container.readinessProbe?.httpGet).toMatchObject({ path: "/readyz", port: portName });
      expect(container.livenessProbe?.httpGet).toMatchObject({ path: "/healthz", port: portName });
      expect(container.startupProbe?.httpGet).toMatchObject({ path: "/healthz", port: portName });
    });

    it("selects its pods consistently in the Deployment, Service and PDB", () => {
      const match = deployment.spec?.selector.matchLabels;
      expect(match).toMatchObject({ "app.kubernetes.io/component": name });
      expect(deployment.spec?.template.metadata?.labels).toMatchObject(match!);
      expect(service.spec?.selector).toEqual(match);
      const pdb = find<IPodDisruptionBudget>("PodDisruptionBudget", name);
      expect(pdb?.spec?.selector?.matchLabels).toEqual(match);
      expect(pdb?.spec?.minAvailable).toBe(1);
    });

    it("is exposed by a ClusterIP Service on its port", () => {
      const [p] = service.spec?.ports ?? [];
      expect(service.spec?.type).toBe("ClusterIP");
      expect(p).toMatchObject({ port: servicePort, targetPort: container.ports?.[0]?.name });
      if (name === "gateway") expect(p?.name).toBe("http");
      else expect(p).toMatchObject({ name: "grpc", appProtocol: "kubernetes.io/h2c" });
    });
  });

  describe(WORKER.name, () => {
    const deployment = find<IDeployment>("Deployment", WORKER.name)!;
    const pod = deployment?.spec?.template.spec as IPodSpec;
    const container = pod?.containers[0] as IContainer;

    it("runs `serve confirmation-worker` with 2 hardened replicas and a PDB, without a Service or an HPA", () => {
      expect(deployment.spec?.replicas).toBe(2);
      expect(container.args).toEqual(["serve", WORKER.name]);
      expect(container.ports).toEqual([{ name: "metrics", containerPort: WORKER.port }]);
      expectHardened(pod, container);
      const match = deployment.spec?.selector.matchLabels;
      expect(match).toMatchObject({ "app.kubernetes.io/component": WORKER.name });
      expect(deployment.spec?.template.metadata?.labels).toMatchObject(match!);
      expect(find<IPodDisruptionBudget>("PodDisruptionBudget", WORKER.name)?.spec).toEqual({
        minAvailable: 1,
        selector: { matchLabels: match },
      });
      expect(find("Service", WORKER.name)).toBeUndefined();
      expect(find("HorizontalPodAutoscaler", WORKER.name)).toBeUndefined();
    });

    it("probes /readyz and /healthz on WORKER_PORT", () => {
      for (const probe of [container.startupProbe, container.livenessProbe])
        expect(probe?.httpGet).toMatchObject({ path: "/healthz", port: "metrics" });
      expect(container.readinessProbe?.httpGet).toMatchObject({ path: "/readyz", port: "metrics" });
      const data = find<IConfigMap>("ConfigMap", "gatehouse-config")!.data!;
      expect(data.WORKER_PORT).toBe(String(WORKER.port));
    });
  });

  it("autoscales gateway, auth and users on CPU", () => {
    for (const name of ["gateway", "auth", "users"]) {
      const hpa = find<IHorizontalPodAutoscaler>("HorizontalPodAutoscaler", name)!;
      expect(hpa.spec?.scaleTargetRef).toEqual({ apiVersion: "apps/v1", kind: "Deployment", name });
      expect(hpa.spec?.metrics?.[0]?.resource).toEqual({
        name: "cpu",
        target: { type: "Utilization", averageUtilization: 70 },
      });
    }
  });

  it("configures service URLs that match the Services", () => {
    const data = find<IConfigMap>("ConfigMap", "gatehouse-config")!.data!;
    for (const name of ["registry", "auth", "users"] as const) {
      const key = name.toUpperCase();
      expect(data[`${key}_URL`]).toBe(`http://${name}:${SERVICES[name].servicePort}`);
      expect(data[`${key}_PORT`]).toBe(String(SERVICES[name].port));
    }
    const secret = find<{ stringData: Record<string, string> }>("Secret", "gatehouse-secrets")!;
    expect(Object.keys(secret.stringData).sort()).toEqual(["DATABASE_URL", "REDIS_URL", "SECRET_KEY"]);
  });

  it("has a hardened migration Job", () => {
    const job = find<IJob>("Job", "gatehouse-migrate")!;
    const pod = job.spec!.template.spec!;
    expect(pod.containers[0]!.args).toEqual(["migrate"]);
    expect(pod.restartPolicy).toBe("Never");
    expect(job.spec?.backoffLimit).toBe(3);
    expect(job.spec?.ttlSecondsAfterFinished).toBeGreaterThan(0);
    expectHardened(pod, pod.containers[0]!);
  });

  it("dev overlay runs one replica of each service on a pinned tag", () => {
    const dev = kustomizations.find((k) => k.file === "k8s/overlays/dev/kustomization.yaml")!.obj as unknown as {
      replicas: { name: string; count: number }[];
      images: { name: string; newTag: string }[];
    };
    expect(dev.replicas.map((r) => [r.name, r.count]).sort()).toEqual(DEPLOYMENTS.map((s) => [s, 1]).sort());
    expect(dev.images).toEqual([{ name: IMAGE, newTag: expect.not.stringMatching(/^latest$/) }]);
  });

  // kustomize is not a dependency; when kubectl is installed, also check what it renders.
  const kubectl = (() => {
    try {
      execFileSync("kubectl", ["version", "--client"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();
  it.skipIf(!kubectl).each(["base", "overlays/dev"])("kubectl kustomize k8s/%s renders valid objects", (dir) => {
    const rendered = parseYamlStream(
      execFileSync("kubectl", ["kustomize", join(here, "k8s", dir)], { encoding: "utf8" }),
      dir,
    );
    expect(rendered.length).toBeGreaterThanOrEqual(20);
    for (const obj of rendered) {
      expect(() => validateObject(obj), `${obj.kind}/${obj.metadata.name}`).not.toThrow();
      expect(obj.metadata.labels?.["app.kubernetes.io/part-of"]).toBe("gatehouse");
      // The API server, not the schema, rejects a PDB with both bounds (a patch slip).
      if (obj.kind === "PodDisruptionBudget") expect(Object.keys(obj.spec as object)).toHaveLength(2);
    }
  });
});

describe("compose.yaml", () => {
  const compose = parse(readFileSync(join(here, "compose.yaml"), "utf8"), { merge: true }) as {
    services: Record<
      string,
      { command?: string[]; environment?: Record<string, string>; depends_on?: Record<string, { condition: string }> }
    >;
  };

  it("defines the services, the one-shot migration first", () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      "auth",
      "confirmation-worker",
      "gateway",
      "migrate",
      "postgres",
      "redis",
      "registry",
      "users",
    ]);
    expect(compose.services.migrate!.command).toEqual(["migrate"]);
    for (const name of DEPLOYMENTS) {
      const svc = compose.services[name]!;
      expect(svc.command).toEqual(["serve", name]);
      expect(svc.depends_on?.migrate).toEqual({ condition: "service_completed_successfully" });
      expect(svc.environment?.SECRET_KEY).toMatch(/^\$\{SECRET_KEY:\?/);
      expect(svc.environment?.DATABASE_URL).toBe("postgres://gatehouse:gatehouse@postgres:5432/gatehouse");
    }
    expect(compose.services.redis!.command).toContain("noeviction");
  });

  it("gives each service its port, URL and health port, and starts the gateway after its services", () => {
    const env = compose.services.gateway!.environment!;
    for (const name of ["registry", "auth", "users"] as const) {
      const key = name.toUpperCase();
      expect(env[`${key}_URL`]).toBe(`http://${name}:${SERVICES[name].port}`);
      expect(env[`${key}_PORT`]).toBe(String(SERVICES[name].port));
      expect(compose.services[name]!.environment?.HEALTH_PORT).toBe(String(SERVICES[name].port));
      expect(compose.services.gateway!.depends_on?.[name]).toEqual({ condition: "service_healthy" });
    }
    expect(env.WORKER_PORT).toBe(String(WORKER.port));
    expect(compose.services[WORKER.name]!.environment?.HEALTH_PORT).toBe(String(WORKER.port));
  });
});

describe("Dockerfile", () => {
  const lines = readFileSync(join(here, "Dockerfile"), "utf8")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((l) => l.trim());
  const argDefaults = lines.map((l) => /^ARG (\w+)=(\S+)/.exec(l)).filter((m) => m !== null);
  const args = new Map(argDefaults.map((m) => [m[1]!, m[2]!]));
  // Base images, with ARG defaults substituted (FROM ${NODE_IMAGE} AS deps).
  const froms = lines
    .filter((l) => l.startsWith("FROM "))
    .map((l) => l.split(/\s+/)[1]!.replace(/^\$\{(\w+)\}$/, (_, k: string) => args.get(k) ?? k));

  it("is multi-stage on pinned, non-latest bases", () => {
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const image of froms) expect(image).toMatch(/^node:24-[\w.-]+$/);
  });

  it("runs the cli as a non-root numeric user", () => {
    const user = lines.filter((l) => l.startsWith("USER ")).at(-1);
    expect(user).toMatch(/^USER [1-9]\d*(:\d+)?$/);
    const entrypoint = JSON.parse(lines.find((l) => l.startsWith("ENTRYPOINT "))!.slice(11)) as string[];
    // The built CLI, with npm start's flags (the script start.sh runs after building).
    expect(entrypoint).toEqual(["sh", "scripts/run-server.sh", "cli"]);
    expect(lines).toContain("COPY scripts/run-server.sh ./scripts/run-server.sh");
    expect(lines).toContain("COPY --from=build /app/dist/server ./dist/server");
    expect(lines).toContain('CMD ["serve","gateway"]');
    expect(lines.find((l) => l.startsWith("HEALTHCHECK "))).toContain("/healthz");
  });

  it("keeps local state and build output out of the context", () => {
    const ignored = readFileSync(join(here, "Dockerfile.dockerignore"), "utf8").split("\n");
    for (const p of ["**/node_modules", "data", ".git", ".nx", "**/dist", "**/coverage"]) expect(ignored).toContain(p);
  });
});
