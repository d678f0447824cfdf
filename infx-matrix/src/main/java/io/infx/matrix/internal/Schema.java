package io.infx.matrix.internal;

import io.infx.core.bind.Binder;

/** The binder configured with the matrix rule ids (spec rules V1, V5, Q-2). */
public final class Schema {

  /** Unknown keys V1, missing fields V5 (and V8/V16 below the top level), strict types Q-2. */
  public static final Binder BINDER = Binder.strict()
      .withRuleIds(new Binder.RuleIds("V1.unknown-key", "V5.field-required", "Q2.strict-type", "V1.invalid"));

  private Schema() {}
}
