package io.infx.core.bind;

/**
 * A value type with cross-field rules written as plain Java. Annotate the type with
 * {@link SelfChecked} and Bean Validation runs {@link #check(Checks)} as a class-level constraint,
 * turning each {@link Checks#fail} into a violation with its own rule id and JSON pointer.
 */
public interface SelfChecking {

  /** Reports every broken cross-field rule of this value to {@code checks}. */
  void check(Checks checks);

  /** Collects the failures of one {@link #check} call. */
  interface Checks {

    /** The value as a whole breaks {@code ruleId}. */
    void fail(String ruleId, String message);

    /**
     * The value at {@code relativePointer} (wire names, e.g. {@code "conc-start"} or
     * {@code "search-space/0/tp"}) breaks {@code ruleId}.
     */
    void fail(String ruleId, String relativePointer, String message);
  }
}
