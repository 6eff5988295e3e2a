import { fuzzEveryRoute } from "./fuzz-suite.ts";

fuzzEveryRoute("PostgreSQL + Redis", false);
