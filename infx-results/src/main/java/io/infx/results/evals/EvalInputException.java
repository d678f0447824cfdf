package io.infx.results.evals;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;

/**
 * Eval input the reference scripts cannot process: they stop with a Python traceback, infx stops
 * with this error (exit status 1). {@link #getMessage()} explains the problem in infx's words;
 * {@link #pythonError()} is the last line of the reference's traceback (e.g.
 * {@code AttributeError: 'NoneType' object has no attribute 'upper'}), which the command line
 * prints too so logs stay comparable with InferenceX's.
 */
public final class EvalInputException extends InfxException {

  private static final long serialVersionUID = 1L;

  private final String pythonError;

  /**
   * @param pythonType the exception class Python raises, e.g. {@code TypeError}
   * @param pythonMessage its message
   * @param explanation what is wrong, for a user
   */
  public EvalInputException(String pythonType, String pythonMessage, String explanation) {
    super(ErrorKind.EVAL_INPUT, explanation);
    this.pythonError = pythonType + ": " + pythonMessage;
  }

  /** The reference's error line, {@code <ExceptionType>: <message>}. */
  public String pythonError() {
    return pythonError;
  }
}
