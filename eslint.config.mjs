import js from "@eslint/js";
import nx from "@nx/eslint-plugin";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";
import prettier from "eslint-config-prettier";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/dist.building-*/**",
      "libs/proto/src/gen/**",
      "data/**",
      ".nx/**",
      "bench/results/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["apps/*/src/**/*.ts", "apps/*/test/**/*.ts", "libs/*/src/**/*.ts"],
    plugins: { "@nx": nx },
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      // No TS-only runtime syntax: node runs our sources by stripping types.
      "no-restricted-syntax": [
        "error",
        { selector: "TSEnumDeclaration", message: "use a const object; node strips types only" },
        { selector: "TSModuleDeclaration[kind='namespace']", message: "no namespaces" },
      ],
      "@nx/enforce-module-boundaries": [
        "error",
        {
          allow: [],
          depConstraints: [
            { sourceTag: "type:lib", onlyDependOnLibsWithTags: ["type:lib"] },
            { sourceTag: "type:app", onlyDependOnLibsWithTags: ["type:lib"] },
            // The composition root (npm start, start:services, CLI) is the one place that wires apps together.
            { sourceTag: "type:launcher", onlyDependOnLibsWithTags: ["type:lib", "type:app"] },
            { sourceTag: "scope:registry", onlyDependOnLibsWithTags: ["scope:registry", "scope:shared"] },
            { sourceTag: "scope:auth", onlyDependOnLibsWithTags: ["scope:auth", "scope:shared"] },
            { sourceTag: "scope:gateway", onlyDependOnLibsWithTags: ["scope:gateway", "scope:shared"] },
          ],
        },
      ],
    },
  },
  {
    // The console (a browser app): React's rules of hooks; node's no-TS-runtime-syntax rule does not apply (Vite compiles it).
    files: ["apps/console/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  // Formatting is Prettier's (checked by `npm run lint`); no stylistic rule may disagree with it.
  prettier,
);
