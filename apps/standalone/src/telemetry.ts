/**
 * Starts OpenTelemetry for this process when the environment asks for it
 * (OTEL_EXPORTER_OTLP_ENDPOINT); the SDK is imported only then, so a process
 * without traces loads none of it. Resolves to the flush-and-stop, if started.
 */
export async function startTraces(service: string): Promise<(() => Promise<void>) | undefined> {
  if (!process.env.OTEL_EXPORTER_OTLP_ENDPOINT && !process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return undefined;
  const { startTelemetry, tracesWanted } = await import("@gatehouse/telemetry");
  return tracesWanted() ? startTelemetry(service) : undefined;
}
