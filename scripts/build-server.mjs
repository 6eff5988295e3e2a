// The server's build: apps/standalone's entry points and every workspace
// package they import, bundled into plain JavaScript (rolldown, types
// stripped by oxc). npm packages stay external and load from node_modules.
// Running this instead of the TypeScript sources spares each process the
// run-time transform (a WebAssembly compiler in memory) and thousands of modules.
import { dirname, join, relative, resolve } from "node:path";
import { build } from "rolldown";

const ENTRIES = {
  main: "apps/standalone/src/main.ts",
  services: "apps/standalone/src/services.ts",
  cli: "apps/standalone/src/cli.ts",
  replicas: "apps/standalone/src/replicas.ts",
};

/**
 * `new URL("../migrations", import.meta.url)` names a file beside the source
 * module; in the bundle import.meta.url is the bundle's. Rewrite the path
 * relative to the output directory (an entry's source becomes its built file).
 */
function assetUrls(root, outDir) {
  const entryByPath = new Map(Object.entries(ENTRIES).map(([name, path]) => [resolve(root, path), `${name}.js`]));
  return {
    name: "gatehouse-asset-urls",
    transform(code, id) {
      if (!id.startsWith(root) || id.includes("node_modules")) return null;
      if (!code.includes("import.meta.url")) return null;
      const out = code.replace(/new URL\((["'])([^"']+)\1, import\.meta\.url\)/g, (_, q, path) => {
        const target = resolve(dirname(id), path);
        const rel = entryByPath.get(target) ?? relative(outDir, target);
        return `new URL(${JSON.stringify(rel.startsWith(".") ? rel : `./${rel}`)}, import.meta.url)`;
      });
      return { code: out, map: null };
    },
  };
}

/**
 * npm packages stay external. Most resolve from the root node_modules as the
 * bare name; a workspace may hold its own version (apps/standalone has
 * commander 15 beside the root's 2.x), which only its own folder resolves: those
 * are imported by their resolved file.
 */
function externalPackages(root) {
  const rootModules = `${join(root, "node_modules")}/`;
  return {
    name: "gatehouse-external-packages",
    async resolveId(source, importer, options) {
      if (
        importer === undefined ||
        source.startsWith(".") ||
        source.startsWith("/") ||
        source.startsWith("@gatehouse/") ||
        source.startsWith("node:")
      )
        return null;
      if (BUNDLED.some((name) => source === name || source.startsWith(`${name}/`))) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved || resolved.id.startsWith(rootModules) || !resolved.id.includes("/node_modules/"))
        return { id: source, external: true };
      return { id: resolved.id, external: true };
    },
  };
}

/**
 * npm packages bundled all the same: pure ESM that only our code imports at
 * run time (one copy, so no class identity splits). TypeBox is ~680 small
 * modules in the gateway; bundled, the process keeps one module instead of
 * their module records (~2-3 MB less resident, docs/performance.md).
 */
const BUNDLED = ["typebox"];

export async function buildServer(root, outDir) {
  await build({
    input: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(root, path)])),
    platform: "node",
    cwd: root,
    resolve: { conditionNames: ["@gatehouse/source", "node", "import", "default"] },
    // Only the workspace's own packages are bundled.
    plugins: [externalPackages(root), assetUrls(root, outDir)],
    logLevel: "warn",
    output: {
      dir: outDir,
      format: "esm",
      entryFileNames: "[name].js",
      chunkFileNames: "[name]-[hash].js",
      charset: "ascii",
      comments: false,
    },
  });
}
