/**
 * AgentX agentic-trace replay: the Weka trace model and strict loader
 * ({@link io.infx.client.agentx.WekaTraces}), InferenceX's per-request context cap
 * ({@link io.infx.client.agentx.TraceCapFilter}), prompt synthesis with exact block sharing, and
 * the session-tree replayer.
 */
package io.infx.client.agentx;
