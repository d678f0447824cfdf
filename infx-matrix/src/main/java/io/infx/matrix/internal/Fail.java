package io.infx.matrix.internal;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.ValidationException;
import io.infx.core.Violation;
import io.infx.core.bind.Origin;
import java.util.List;
import java.util.Optional;

/** Errors raised while rows are built or selected. */
public final class Fail {

  private Fail() {}

  /** A generation error (kind {@link ErrorKind#GENERATION}), located at the entry when it was read from a file. */
  public static ValidationException generation(String ruleId, String message, Optional<Origin> where) {
    return located(ErrorKind.GENERATION, ruleId, message, where);
  }

  /** A selection error (kind {@link ErrorKind#SELECTION}: unknown key, empty pattern, unknown runner type). */
  public static InfxException selection(String ruleId, String message) {
    return new ValidationException(ErrorKind.SELECTION, List.of(Violation.of(ruleId, message)));
  }

  private static ValidationException located(ErrorKind kind, String ruleId, String message, Optional<Origin> where) {
    var b = Violation.builder().ruleId(ruleId).message(message);
    where.ifPresent(o -> b.location(o.location()).pointer(o.pointer()));
    return new ValidationException(kind, List.of(b.build()));
  }
}
