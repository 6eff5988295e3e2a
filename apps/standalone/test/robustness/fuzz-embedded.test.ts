import { fuzzEveryRoute } from "./fuzz-suite.ts";

fuzzEveryRoute("embedded (PGlite)", true);
