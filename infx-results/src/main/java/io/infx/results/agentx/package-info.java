/**
 * AgentX results: the {@code bmk_agentic_*} aggregate of an agentic-trace replay
 * ({@link io.infx.results.agentx.AgenticAggregator}) and the pre-upload validity gate
 * ({@link io.infx.results.agentx.AgenticGate}), reproducing InferenceX's {@code utils/agentic}
 * aggregation and validation (see {@code docs/decisions.md}, section AgentX).
 */
package io.infx.results.agentx;
