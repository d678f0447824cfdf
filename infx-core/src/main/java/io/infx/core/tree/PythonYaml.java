package io.infx.core.tree;

import io.infx.core.ErrorKind;
import io.infx.core.InfxException;
import io.infx.core.python.PythonRepr;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.CollectionStartEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.MappingStartEvent;
import org.yaml.snakeyaml.events.NodeEvent;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.events.SequenceStartEvent;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;
import org.yaml.snakeyaml.scanner.Scanner;
import org.yaml.snakeyaml.scanner.ScannerImpl;
import org.yaml.snakeyaml.tokens.AliasToken;
import org.yaml.snakeyaml.tokens.AnchorToken;
import org.yaml.snakeyaml.tokens.ScalarToken;
import org.yaml.snakeyaml.tokens.Token;

/**
 * PyYAML's {@code yaml.safe_load(text)} (PyYAML 6) for code that must behave exactly as a Python
 * script of the reference does, down to its error messages: the value it returns, and when it
 * fails, the exception's class and its {@code str()} ({@link LoadError}).
 *
 * <p>What is PyYAML's here: the printable-character check of the whole text before anything else
 * ({@code ReaderError}, with a code-point position); scanner and parser errors with PyYAML's
 * wording and marks ({@code  in "<unicode string>", line L, column C:} plus the snippet with its
 * caret, cut to about 75 characters with {@code  ... }); composer errors (undefined alias,
 * duplicate anchor, a second document); the safe constructor's order (breadth first, as its
 * generators run), its tags and its errors: an unknown tag, an unhashable key, merge keys
 * ({@code <<}) that are not mappings, {@code !!int}/{@code !!float} text Python's {@code int()}/
 * {@code float()} refuse (a {@code ValueError}), an invalid date in a timestamp. Duplicate keys are
 * not errors: the last value wins at the first key's position, and keys that are equal in Python
 * ({@code 1}, {@code 1.0}, {@code True}) are one key.
 *
 * <p>Scanning and parsing are SnakeYAML's (a port of PyYAML); this class maps its messages onto
 * PyYAML's ({@code repr()} of the offending character or token) and computes lines, columns and
 * snippets from the text itself, and applies what PyYAML's scanner refuses and SnakeYAML's
 * accepts (a tab anywhere outside a quoted or block scalar or a comment; anchor names beyond
 * {@code [0-9A-Za-z_-]}). Differences that remain: when the text holds several errors, PyYAML's
 * scanner look-ahead may meet a later one first (0.34 % of 9,000 random mutations of thresholds
 * files, {@code yaml-safe-load-fuzz.py}); the size and depth limits of {@link TreeLimits} apply;
 * {@code !!binary} text is not decoded or checked; {@code !!omap}/{@code !!pairs} are lists of
 * {@code [key, value]} lists. As in PyYAML, an alias is the same Java object at every use (a
 * recursive alias makes a list that contains itself), so callers that walk the value must guard.
 *
 * <p>Values: a mapping is a {@link LinkedHashMap} (keys {@link String}, {@link BigInteger},
 * {@link Double}, {@link Boolean}, {@code null}, {@link Timestamp} or {@link Binary}), a sequence
 * an {@link ArrayList}, {@code !!set} a {@link LinkedHashSet}; scalars are {@link String},
 * {@link BigInteger} (int), {@link Double} (float), {@link Boolean}, {@code null},
 * {@link Timestamp} and {@link Binary}.
 */
public final class PythonYaml {

  private PythonYaml() {}

  /** Where PyYAML's marks say the text came from: a {@code str} passed to {@code safe_load}. */
  static final String NAME = "<unicode string>";

  private static final String TAG = "tag:yaml.org,2002:";

  /** A YAML timestamp (Python {@code datetime.date} or {@code datetime.datetime}), as written. */
  public record Timestamp(String text) {}

  /** {@code !!binary} data (Python {@code bytes}), its base64 text as written. */
  public record Binary(String base64) {}

  /**
   * What {@code safe_load} raised.
   *
   * <p>{@link #pythonType()} is the exception class ({@code ScannerError}, {@code ParserError},
   * {@code ComposerError}, {@code ConstructorError}, {@code ReaderError} — all
   * {@code yaml.YAMLError}s — or a plain {@code ValueError}, {@code KeyError},
   * {@code IndexError}, {@code AttributeError} the constructor lets through);
   * {@link #pythonMessage()} is its {@code str()}, multi-line for marked errors.
   */
  public static final class LoadError extends InfxException {
    private static final long serialVersionUID = 1L;

    private final String pythonType;
    private final boolean yamlError;
    private final String pythonMessage;

    LoadError(String pythonType, boolean yamlError, String pythonMessage) {
      super(ErrorKind.INPUT, pythonMessage);
      this.pythonType = pythonType;
      this.yamlError = yamlError;
      this.pythonMessage = pythonMessage;
    }

    public String pythonType() {
      return pythonType;
    }

    /** Whether Python raises a {@code yaml.YAMLError} (else a built-in exception). */
    public boolean isYamlError() {
      return yamlError;
    }

    /** {@code str(exception)}. */
    public String pythonMessage() {
      return pythonMessage;
    }
  }

  /**
   * {@code yaml.safe_load(text)} with the default {@link TreeLimits}.
   *
   * @return the document's value ({@code null} for an empty stream); types in the class comment
   * @throws LoadError where PyYAML raises
   * @throws InfxException kind {@code input} when the text exceeds the limits
   */
  public static @Nullable Object safeLoad(String text) {
    return safeLoad(text, TreeLimits.DEFAULT);
  }

  /** {@link #safeLoad(String)} with explicit limits. */
  public static @Nullable Object safeLoad(String text, TreeLimits limits) {
    int[] cps = text.codePoints().toArray();
    Text t = new Text(cps);
    checkPrintable(cps);
    PNode root = new EventComposer(text, t, limits).composeSingle();
    if (root == null) {
      return null;
    }
    return new Constructor(t, limits).constructDocument(root);
  }

  // ---------------------------------------------------------------- reader

  private static void checkPrintable(int[] cps) {
    for (int i = 0; i < cps.length; i++) {
      int c = cps[i];
      boolean ok = c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85
          || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
      if (!ok) {
        throw new LoadError("ReaderError", true, String.format(Locale.ROOT,
            "unacceptable character #x%04x: special characters are not allowed\n  in \"%s\", position %d",
            c, NAME, i));
      }
    }
  }

  /** The text as PyYAML's reader sees it: code points, with marks computed its way. */
  private static final class Text {
    private final int[] cps;

    Text(int[] cps) {
      this.cps = cps;
    }

    int at(int i) {
      return i >= 0 && i < cps.length ? cps[i] : 0;
    }

    /** {@code str(mark)} for the mark at code-point {@code index}. */
    String mark(int index) {
      int line = 0;
      int column = 0;
      for (int i = 0; i < index && i < cps.length; i++) {
        int ch = cps[i];
        if (ch == '\n' || ch == 0x85 || ch == 0x2028 || ch == 0x2029 || (ch == '\r' && at(i + 1) != '\n')) {
          line++;
          column = 0;
        } else if (ch != 0xFEFF) {
          column++;
        }
      }
      return "  in \"" + NAME + "\", line " + (line + 1) + ", column " + (column + 1) + ":\n" + snippet(index);
    }

    /** PyYAML's {@code Mark.get_snippet(indent=4, max_length=75)}; the buffer ends with a NUL. */
    private String snippet(int pointer) {
      final int maxLength = 75;
      String head = "";
      int start = pointer;
      while (start > 0 && !isBreakOrNul(at(start - 1))) {
        start--;
        if (pointer - start > maxLength / 2.0 - 1) {
          head = " ... ";
          start += 5;
          break;
        }
      }
      String tail = "";
      int end = pointer;
      while (end < cps.length + 1 && !isBreakOrNul(at(end))) {
        end++;
        if (end - pointer > maxLength / 2.0 - 1) {
          tail = " ... ";
          end -= 5;
          break;
        }
      }
      StringBuilder sb = new StringBuilder("    ").append(head);
      for (int i = start; i < end; i++) {
        sb.appendCodePoint(at(i));
      }
      sb.append(tail).append('\n').append(" ".repeat(4 + pointer - start + head.length())).append('^');
      return sb.toString();
    }

    private static boolean isBreakOrNul(int c) {
      return c == 0 || c == '\r' || c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029;
    }
  }

  /** {@code str(MarkedYAMLError)}: context, its mark unless equal to the problem's, problem, mark. */
  private static LoadError marked(String type, Text t, @Nullable String context, int contextMark,
      @Nullable String problem, int problemMark) {
    List<String> lines = new ArrayList<>();
    if (context != null) {
      lines.add(context);
    }
    if (contextMark >= 0 && (problem == null || problemMark < 0 || contextMark != problemMark)) {
      lines.add(t.mark(contextMark));
    }
    if (problem != null) {
      lines.add(problem);
    }
    if (problemMark >= 0) {
      lines.add(t.mark(problemMark));
    }
    return new LoadError(type, true, String.join("\n", lines));
  }

  private static String repr(int codePoint) {
    return PythonRepr.repr(new String(Character.toChars(codePoint)));
  }

  // ---------------------------------------------------------------- scanner and parser messages

  /** SnakeYAML's {@code <text>(<code point>)} ending, e.g. {@code x(120)}, {@code ' ' (32)}. */
  private static final Pattern CODE_POINT_TAIL = Pattern.compile("(?s)^(.*?, but found:? ?)(?:'.*' |.*)\\((\\d+)\\)$");
  private static final Pattern CANNOT_START = Pattern.compile("(?s)^found character .* that cannot start any token.*$");
  private static final Pattern FLOW_END = Pattern.compile("(?s)^(expected ',' or '[\\]}]', but got )(.*)$");
  private static final Pattern UNKNOWN_ESCAPE = Pattern.compile("(?s)^found unknown escape character .*\\((\\d+)\\)$");
  private static final Pattern HEX_ESCAPE = Pattern.compile("^expected escape sequence of (\\d+) hexadecimal numbers, but found.*$", Pattern.DOTALL);
  private static final Pattern ANCHOR_CHAR = Pattern.compile("(?s)^unexpected character found .*\\((\\d+)\\)$");
  private static final Pattern HANDLE = Pattern.compile("(?s)^(duplicate tag handle |found undefined tag handle )(.*)$");

  /** SnakeYAML's scanner/parser exception as the PyYAML exception it stands for. */
  private static LoadError scanOrParse(MarkedYAMLException e, Text t) {
    String context = e.getContext();
    String problem = e.getProblem();
    int problemAt = index(e.getProblemMark());
    int contextAt = index(e.getContextMark());
    String type = e.getClass().getSimpleName().startsWith("Scanner") ? "ScannerError" : "ParserError";
    if (problem != null) {
      Matcher m;
      if (CANNOT_START.matcher(problem).matches()) {
        problem = "found character " + repr(t.at(problemAt)) + " that cannot start any token";
      } else if ((m = FLOW_END.matcher(problem)).matches()) {
        String got = m.group(2);
        problem = m.group(1) + (got.startsWith("'") ? got : PythonRepr.repr(got));
      } else if ((m = UNKNOWN_ESCAPE.matcher(problem)).matches()) {
        problem = "found unknown escape character " + repr(Integer.parseInt(m.group(1)));
      } else if ((m = HEX_ESCAPE.matcher(problem)).matches()) {
        int length = Integer.parseInt(m.group(1));
        int bad = 0;
        for (int k = 0; k < length; k++) {
          int c = t.at(problemAt + k);
          if ("0123456789ABCDEFabcdef".indexOf(c) < 0 || c == 0) {
            bad = c;
            break;
          }
        }
        problem = "expected escape sequence of " + length + " hexadecimal numbers, but found " + repr(bad);
      } else if ((m = ANCHOR_CHAR.matcher(problem)).matches()) {
        problem = "expected alphabetic or numeric character, but found " + repr(Integer.parseInt(m.group(1)));
      } else if ((m = HANDLE.matcher(problem)).matches()) {
        problem = m.group(1) + PythonRepr.repr(m.group(2));
      } else if ((m = CODE_POINT_TAIL.matcher(problem)).matches()) {
        String lead = m.group(1).replaceFirst(":? ?$", " ");
        // PyYAML says "parsing" where a tag's '>' or a URI is missing (scan_tag, scan_tag_uri).
        if (context != null && context.startsWith("while scanning a ")
            && (problem.startsWith("expected '>'") || problem.startsWith("expected URI, "))) {
          context = "while parsing a " + context.substring("while scanning a ".length());
        }
        problem = lead + repr(Integer.parseInt(m.group(2)));
      }
    }
    return marked(type, t, context, contextAt, problem, problemAt);
  }

  private static int index(@Nullable Mark m) {
    return m == null ? -1 : m.getIndex();
  }

  // ---------------------------------------------------------------- scanner differences

  /**
   * SnakeYAML's tokens, checked for what PyYAML's scanner refuses and SnakeYAML (YAML 1.2)
   * accepts, in token order: a tab between tokens outside a comment or inside a plain scalar
   * (PyYAML skips only spaces), and anchor or alias names with other characters than
   * {@code [0-9A-Za-z_-]}.
   */
  private static final class PyTokens implements Scanner {
    private final Scanner inner;
    private final Text t;
    private Token checked;
    private int lastEnd;

    PyTokens(Scanner inner, Text t) {
      this.inner = inner;
      this.t = t;
    }

    private Token head() {
      Token token = inner.peekToken();
      if (token != checked) {
        check(token);
        checked = token;
      }
      return token;
    }

    private void check(Token token) {
      int start = token.getStartMark().getIndex();
      for (int i = Math.max(lastEnd, 0); i < start; i++) {
        int c = t.at(i);
        if (c == '#') {
          while (i + 1 < start && !Text.isBreakOrNul(t.at(i + 1))) {
            i++;
          }
        } else if (c == '\t') {
          throw cannotStart(i);
        }
      }
      int end = token.getEndMark().getIndex();
      if (token instanceof ScalarToken s && s.getPlain()) {
        for (int i = start; i < end; i++) {
          if (t.at(i) == '\t') {
            throw cannotStart(i);
          }
        }
      } else if (token instanceof AnchorToken || token instanceof AliasToken) {
        String name = token instanceof AnchorToken ? "anchor" : "alias";
        int i = start + 1;
        while (isAnchorChar(t.at(i))) {
          i++;
        }
        int c = t.at(i);
        if (i == start + 1 || " \t\r\n\u0085\u2028\u2029?:,]}%@`".indexOf(c) < 0 && c != 0) {
          throw marked("ScannerError", t, "while scanning an " + name, start,
              "expected alphabetic or numeric character, but found " + repr(c), i);
        }
        if (i < end && (c == '@' || c == '`')) {
          throw cannotStart(i); // PyYAML's name ends here; its next token cannot start with @ or `
        }
      }
      lastEnd = Math.max(lastEnd, end);
    }

    private static boolean isAnchorChar(int c) {
      return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '-' || c == '_';
    }

    private LoadError cannotStart(int at) {
      return marked("ScannerError", t, "while scanning for the next token", at,
          "found character " + repr(t.at(at)) + " that cannot start any token", at);
    }

    @Override
    public boolean checkToken(Token.ID... choices) {
      Token.ID id = head().getTokenId();
      if (choices.length == 0) {
        return true;
      }
      for (Token.ID c : choices) {
        if (c == id) {
          return true;
        }
      }
      return false;
    }

    @Override
    public Token peekToken() {
      return head();
    }

    @Override
    public Token getToken() {
      head();
      return inner.getToken();
    }

    @Override
    public void resetDocumentIndex() {
      inner.resetDocumentIndex();
    }
  }

  // ---------------------------------------------------------------- composer

  /** A composed node: PyYAML's ScalarNode / SequenceNode / MappingNode, with its resolved tag. */
  private abstract static class PNode {
    final String tag;
    final int start;

    PNode(String tag, int start) {
      this.tag = tag;
      this.start = start;
    }

    abstract String id();
  }

  private static final class PScalar extends PNode {
    final String value;

    PScalar(String tag, int start, String value) {
      super(tag, start);
      this.value = value;
    }

    @Override
    String id() {
      return "scalar";
    }
  }

  private static final class PSeq extends PNode {
    final List<PNode> items = new ArrayList<>();

    PSeq(String tag, int start) {
      super(tag, start);
    }

    @Override
    String id() {
      return "sequence";
    }
  }

  private static final class PMap extends PNode {
    final List<PNode[]> pairs = new ArrayList<>();

    PMap(String tag, int start) {
      super(tag, start);
    }

    @Override
    String id() {
      return "mapping";
    }
  }

  /** PyYAML's Composer over SnakeYAML's parser events, with PyYAML's resolver. */
  private static final class EventComposer {
    private final Parser parser;
    private final Text t;
    private final TreeLimits limits;
    private final Map<String, PNode> anchors = new HashMap<>();
    private int depth;

    EventComposer(String text, Text t, TreeLimits limits) {
      LoaderOptions options = new LoaderOptions();
      options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxBytes()));
      options.setProcessComments(false);
      this.parser = new ParserImpl(new PyTokens(new ScannerImpl(new StreamReader(new StringReader(text)), options), t));
      this.t = t;
      this.limits = limits;
    }

    private Event next() {
      return event(parser::getEvent);
    }

    private Event peek() {
      return event(parser::peekEvent);
    }

    /** An event, SnakeYAML's scanner/parser errors turned into PyYAML's. */
    private Event event(java.util.function.Supplier<Event> read) {
      try {
        return read.get();
      } catch (MarkedYAMLException e) {
        throw scanOrParse(e, t);
      } catch (YAMLException e) {
        throw new InfxException(ErrorKind.INPUT, "YAML text cannot be read safely: " + e.getMessage());
      }
    }

    /** {@code get_single_node}: one document or none; a second document is an error. */
    @Nullable PNode composeSingle() {
      next(); // stream start
      PNode document = null;
      if (!peek().is(Event.ID.StreamEnd)) {
        document = composeDocument();
      } else if (directiveOnly()) {
        // PyYAML's parser wants '---' after directives; SnakeYAML lets a stream of them end.
        throw marked("ParserError", t, null, -1, "expected '<document start>', but found '<stream end>'",
            peek().getStartMark().getIndex());
      }
      if (!peek().is(Event.ID.StreamEnd)) {
        Event event = next();
        throw marked("ComposerError", t, "expected a single document in the stream",
            document == null ? -1 : document.start, "but found another document", event.getStartMark().getIndex());
      }
      next();
      return document;
    }

    /** Whether a stream without any document holds a directive (a line starting with {@code %}). */
    private boolean directiveOnly() {
      boolean lineStart = true;
      for (int i = 0; i < t.cps.length; i++) {
        int c = t.cps[i];
        if (lineStart && c == '%') {
          return true;
        }
        lineStart = c == '\n' || c == 0x85 || c == 0x2028 || c == 0x2029 || (c == '\r' && t.at(i + 1) != '\n');
      }
      return false;
    }

    private PNode composeDocument() {
      next(); // document start
      PNode node = composeNode();
      next(); // document end
      anchors.clear();
      return node;
    }

    private PNode composeNode() {
      if (peek() instanceof AliasEvent) {
        AliasEvent event = (AliasEvent) next();
        PNode target = anchors.get(event.getAnchor());
        if (target == null) {
          throw marked("ComposerError", t, null, -1, "found undefined alias " + PythonRepr.repr(event.getAnchor()),
              event.getStartMark().getIndex());
        }
        return target;
      }
      NodeEvent event = (NodeEvent) peek();
      String anchor = event.getAnchor();
      if (anchor != null && anchors.containsKey(anchor)) {
        throw marked("ComposerError", t, "found duplicate anchor " + PythonRepr.repr(anchor) + "; first occurrence",
            anchors.get(anchor).start, "second occurrence", event.getStartMark().getIndex());
      }
      if (++depth > limits.maxDepth()) {
        throw new InfxException(ErrorKind.INPUT, "YAML text nests deeper than " + limits.maxDepth() + " levels");
      }
      PNode node;
      if (event instanceof ScalarEvent s) {
        next();
        node = new PScalar(resolveScalar(s), s.getStartMark().getIndex(), s.getValue());
        register(anchor, node);
      } else if (event instanceof SequenceStartEvent) {
        next();
        PSeq seq = new PSeq(collectionTag((CollectionStartEvent) event, "seq"), event.getStartMark().getIndex());
        register(anchor, seq);
        while (!peek().is(Event.ID.SequenceEnd)) {
          seq.items.add(composeNode());
        }
        next();
        node = seq;
      } else if (event instanceof MappingStartEvent) {
        next();
        PMap map = new PMap(collectionTag((CollectionStartEvent) event, "map"), event.getStartMark().getIndex());
        register(anchor, map);
        while (!peek().is(Event.ID.MappingEnd)) {
          PNode key = composeNode();
          PNode value = composeNode();
          map.pairs.add(new PNode[] {key, value});
        }
        next();
        node = map;
      } else {
        throw new IllegalStateException("unexpected YAML event " + event);
      }
      depth--;
      return node;
    }

    private void register(@Nullable String anchor, PNode node) {
      if (anchor != null) {
        anchors.put(anchor, node);
      }
    }

    private static String collectionTag(CollectionStartEvent e, String kind) {
      String tag = e.getTag();
      return tag == null || tag.equals("!") ? TAG + kind : tag;
    }

    /** PyYAML's resolver: implicit typing of plain (and {@code !}-tagged) scalars, else {@code str}. */
    private static String resolveScalar(ScalarEvent e) {
      String tag = e.getTag();
      if (tag != null && !tag.equals("!")) {
        return tag;
      }
      if (!e.getImplicit().canOmitTagInPlainScalar()) {
        return TAG + "str";
      }
      String v = e.getValue();
      if (v.equals("<<")) {
        return TAG + "merge";
      }
      if (v.equals("=")) {
        return TAG + "value";
      }
      ScalarKind kind = (ScalarKind) Yaml11.resolvePlain(v)[0];
      return TAG + switch (kind) {
        case NULL -> "null";
        case BOOLEAN -> "bool";
        case INTEGER -> "int";
        case FLOAT -> "float";
        case TIMESTAMP -> "timestamp";
        case STRING -> "str";
      };
    }
  }

  // ---------------------------------------------------------------- constructor

  /** PyYAML's SafeConstructor: collections are filled breadth first, as its generators run. */
  private static final class Constructor {
    private final Text t;
    private final TreeLimits limits;
    private final Map<PNode, Object> constructed = new IdentityHashMap<>();
    private final Map<PMap, List<PNode[]>> flattened = new IdentityHashMap<>();
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    private long values;

    Constructor(Text t, TreeLimits limits) {
      this.t = t;
      this.limits = limits;
    }

    Object constructDocument(PNode root) {
      Object data = object(root);
      while (!pending.isEmpty()) {
        pending.removeFirst().run();
      }
      return data;
    }

    private LoadError error(@Nullable String context, int contextMark, String problem, int problemMark) {
      return marked("ConstructorError", t, context, contextMark, problem, problemMark);
    }

    private Object object(PNode node) {
      if (constructed.containsKey(node)) {
        return constructed.get(node);
      }
      if (++values > limits.maxNodes()) {
        throw new InfxException(ErrorKind.INPUT, "YAML text expands to more than " + limits.maxNodes() + " values");
      }
      String tag = node.tag;
      Object data;
      if (tag.startsWith(TAG)) {
        data = switch (tag.substring(TAG.length())) {
          case "str" -> scalar(node);
          case "null" -> {
            scalar(node);
            yield null;
          }
          case "bool" -> bool(scalar(node));
          case "int" -> integer(scalar(node));
          case "float" -> floating(scalar(node));
          case "timestamp" -> timestamp(scalar(node));
          case "binary" -> new Binary(scalar(node));
          case "seq" -> sequence(node, new ArrayList<>());
          case "omap", "pairs" -> pairs(node);
          case "map" -> mapping(node, new LinkedHashMap<>());
          case "set" -> set(node);
          default -> throw unknownTag(node);
        };
      } else {
        throw unknownTag(node);
      }
      constructed.put(node, data);
      return data;
    }

    private LoadError unknownTag(PNode node) {
      return error(null, -1, "could not determine a constructor for the tag " + PythonRepr.repr(node.tag), node.start);
    }

    private String scalar(PNode node) {
      if (node instanceof PScalar s) {
        return s.value;
      }
      throw error(null, -1, "expected a scalar node, but found " + node.id(), node.start);
    }

    // Collections are created empty and filled later, as PyYAML's generator constructors
    // (construct_yaml_seq/map/set/omap/pairs) yield first; their node-kind checks run then too.

    private List<Object> sequence(PNode node, List<Object> list) {
      constructed.put(node, list);
      pending.addLast(() -> {
        if (!(node instanceof PSeq seq)) {
          throw error(null, -1, "expected a sequence node, but found " + node.id(), node.start);
        }
        for (PNode item : seq.items) {
          list.add(object(item));
        }
      });
      return list;
    }

    /** {@code !!omap} / {@code !!pairs}: a sequence of one-item mappings, as {@code [key, value]} lists. */
    private List<Object> pairs(PNode node) {
      List<Object> list = new ArrayList<>();
      String context = node.tag.endsWith("omap") ? "while constructing an ordered map" : "while constructing pairs";
      constructed.put(node, list);
      pending.addLast(() -> {
        if (!(node instanceof PSeq seq)) {
          throw error(context, node.start, "expected a sequence, but found " + node.id(), node.start);
        }
        for (PNode item : seq.items) {
          if (!(item instanceof PMap m)) {
            throw error(context, node.start, "expected a mapping of length 1, but found " + item.id(), item.start);
          }
          if (m.pairs.size() != 1) {
            throw error(context, node.start, "expected a single mapping item, but found " + m.pairs.size()
                + " items", item.start);
          }
          Object key = object(m.pairs.get(0)[0]);
          Object value = object(m.pairs.get(0)[1]);
          list.add(new ArrayList<>(java.util.Arrays.asList(key, value)));
        }
      });
      return list;
    }

    private Object set(PNode node) {
      LinkedHashSet<Object> set = new LinkedHashSet<>();
      constructed.put(node, set);
      pending.addLast(() -> {
        Map<Object, Object> map = new LinkedHashMap<>();
        fill(node, map);
        set.addAll(map.keySet());
      });
      return set;
    }

    private Map<Object, Object> mapping(PNode node, Map<Object, Object> map) {
      constructed.put(node, map);
      pending.addLast(() -> fill(node, map));
      return map;
    }

    /** {@code construct_mapping}: merge keys flattened first, keys must be hashable, last wins. */
    private void fill(PNode any, Map<Object, Object> map) {
      if (!(any instanceof PMap node)) {
        throw error(null, -1, "expected a mapping node, but found " + any.id(), any.start);
      }
      Map<Object, Object> canonical = new HashMap<>();
      for (PNode[] pair : flatten(node)) {
        PNode keyNode = pair[0];
        Object key = keyNode.tag.equals(TAG + "value") && keyNode instanceof PScalar s ? s.value : object(keyNode);
        if (key instanceof List || key instanceof Map || key instanceof java.util.Set) {
          throw error("while constructing a mapping", node.start, "found unhashable key", keyNode.start);
        }
        Object value = object(pair[1]);
        Object c = canonicalKey(key);
        Object first = canonical.putIfAbsent(c, key);
        map.put(first == null ? key : first, value);
      }
    }

    /** {@code flatten_mapping}: pairs of merged mappings (later sources first), then the node's own. */
    private List<PNode[]> flatten(PMap node) {
      List<PNode[]> done = flattened.get(node);
      if (done != null) {
        return done;
      }
      List<PNode[]> merge = new ArrayList<>();
      List<PNode[]> own = new ArrayList<>();
      for (PNode[] pair : node.pairs) {
        if (!pair[0].tag.equals(TAG + "merge")) {
          own.add(pair);
          continue;
        }
        PNode value = pair[1];
        if (value instanceof PMap m) {
          merge.addAll(flatten(m));
        } else if (value instanceof PSeq s) {
          List<List<PNode[]>> sub = new ArrayList<>();
          for (PNode item : s.items) {
            if (!(item instanceof PMap m)) {
              throw error("while constructing a mapping", node.start,
                  "expected a mapping for merging, but found " + item.id(), item.start);
            }
            sub.add(flatten(m));
          }
          for (int i = sub.size() - 1; i >= 0; i--) {
            merge.addAll(sub.get(i));
          }
        } else {
          throw error("while constructing a mapping", node.start,
              "expected a mapping or list of mappings for merging, but found " + value.id(), value.start);
        }
      }
      List<PNode[]> out = new ArrayList<>(merge);
      out.addAll(own);
      flattened.put(node, out);
      return out;
    }

    private static final Map<String, Boolean> BOOLS = Map.of("yes", true, "no", false, "true", true,
        "false", false, "on", true, "off", false);

    private static Boolean bool(String value) {
      Boolean b = BOOLS.get(value.toLowerCase(Locale.ROOT));
      if (b == null) {
        throw new LoadError("KeyError", false, PythonRepr.repr(value.toLowerCase(Locale.ROOT)));
      }
      return b;
    }

    /** {@code construct_yaml_int}, with the {@code int()} errors Python raises. */
    private static BigInteger integer(String text) {
      String value = text.replace("_", "");
      if (value.isEmpty()) {
        throw new LoadError("IndexError", false, "string index out of range");
      }
      boolean negative = value.charAt(0) == '-';
      if (value.charAt(0) == '+' || negative) {
        value = value.substring(1);
      }
      if (value.isEmpty()) {
        throw new LoadError("IndexError", false, "string index out of range");
      }
      BigInteger out;
      if (value.equals("0")) {
        return BigInteger.ZERO;
      } else if (value.startsWith("0b")) {
        out = pyInt(value.substring(2), 2);
      } else if (value.startsWith("0x")) {
        out = pyInt(value.substring(2), 16);
      } else if (value.charAt(0) == '0') {
        out = pyInt(value, 8);
      } else if (value.indexOf(':') >= 0) {
        out = BigInteger.ZERO;
        for (String part : value.split(":", -1)) {
          out = out.multiply(BigInteger.valueOf(60)).add(pyInt(part, 10));
        }
      } else {
        out = pyInt(value, 10);
      }
      return negative ? out.negate() : out;
    }

    /** Python's {@code int(text, base)} for ASCII text (surrounding whitespace allowed). */
    private static BigInteger pyInt(String text, int base) {
      String s = text.strip();
      try {
          return new BigInteger(s, base);
      } catch (NumberFormatException e) {
        throw new LoadError("ValueError", false,
            "invalid literal for int() with base " + base + ": " + PythonRepr.repr(text));
      }
    }

    private static final Pattern PY_FLOAT = Pattern.compile(
        "[-+]?(?:(?:\\d+\\.?\\d*|\\.\\d+)(?:e[-+]?\\d+)?|inf|infinity|nan)");

    /** {@code construct_yaml_float}: underscores dropped, lower-cased, then Python's {@code float()}. */
    private static Double floating(String text) {
      String value = text.replace("_", "").toLowerCase(Locale.ROOT);
      if (value.isEmpty()) {
        throw new LoadError("IndexError", false, "string index out of range");
      }
      int sign = value.charAt(0) == '-' ? -1 : 1;
      if (value.charAt(0) == '+' || value.charAt(0) == '-') {
        value = value.substring(1);
      }
      if (value.equals(".inf")) {
        return sign * Double.POSITIVE_INFINITY;
      }
      if (value.equals(".nan")) {
        return Double.NaN;
      }
      if (value.indexOf(':') >= 0) {
        double out = 0;
        double base = 1;
        String[] parts = value.split(":", -1);
        for (int i = parts.length - 1; i >= 0; i--) {
          out += pyFloat(parts[i]) * base;
          base *= 60;
        }
        return sign * out;
      }
      return sign * pyFloat(value);
    }

    private static double pyFloat(String text) {
      String s = text.strip();
      if (!PY_FLOAT.matcher(s).matches()) {
        throw new LoadError("ValueError", false, "could not convert string to float: " + PythonRepr.repr(text));
      }
      String body = s.replaceFirst("^[-+]", "");
      double sign = s.startsWith("-") ? -1 : 1;
      if (body.startsWith("inf")) {
        return sign * Double.POSITIVE_INFINITY;
      }
      if (body.equals("nan")) {
        return Double.NaN;
      }
      return Double.parseDouble(s);
    }

    private static final Pattern TIMESTAMP = Pattern.compile(
        "^(?<year>[0-9][0-9][0-9][0-9])-(?<month>[0-9][0-9]?)-(?<day>[0-9][0-9]?)"
            + "(?:(?:[Tt]|[ \\t]+)(?<hour>[0-9][0-9]?):(?<minute>[0-9][0-9]):(?<second>[0-9][0-9])"
            + "(?:\\.(?<fraction>[0-9]*))?"
            + "(?:[ \\t]*(?<tz>Z|(?<tzsign>[-+])(?<tzhour>[0-9][0-9]?)(?::(?<tzminute>[0-9][0-9]))?))?)?$");

    /** {@code construct_yaml_timestamp}: the date and time must exist ({@code datetime}'s checks). */
    private static Timestamp timestamp(String text) {
      Matcher m = TIMESTAMP.matcher(text);
      if (!m.find()) {
        throw new LoadError("AttributeError", false, "'NoneType' object has no attribute 'groupdict'");
      }
      int year = Integer.parseInt(m.group("year"));
      int month = Integer.parseInt(m.group("month"));
      int day = Integer.parseInt(m.group("day"));
      boolean time = m.group("hour") != null;
      if (time && m.group("tzsign") != null) {
        // datetime.timezone(delta) is built before datetime(...) checks the fields.
        int minutes = Integer.parseInt(m.group("tzhour")) * 60
            + (m.group("tzminute") == null ? 0 : Integer.parseInt(m.group("tzminute")));
        if (minutes >= 24 * 60) {
          long seconds = minutes * 60L * (m.group("tzsign").equals("-") ? -1 : 1);
          long days = Math.floorDiv(seconds, 86_400L);
          long rest = Math.floorMod(seconds, 86_400L);
          throw new LoadError("ValueError", false, "offset must be a timedelta strictly between "
              + "-timedelta(hours=24) and timedelta(hours=24), not datetime.timedelta(days=" + days
              + (rest == 0 ? "" : ", seconds=" + rest) + ").");
        }
      }
      if (year < 1) {
        throw new LoadError("ValueError", false, "year " + year + " is out of range");
      }
      if (month < 1 || month > 12) {
        throw new LoadError("ValueError", false, "month must be in 1..12");
      }
      if (day < 1 || day > java.time.YearMonth.of(year, month).lengthOfMonth()) {
        throw new LoadError("ValueError", false, "day is out of range for month");
      }
      if (time) {
        if (Integer.parseInt(m.group("hour")) > 23) {
          throw new LoadError("ValueError", false, "hour must be in 0..23");
        }
        if (Integer.parseInt(m.group("minute")) > 59) {
          throw new LoadError("ValueError", false, "minute must be in 0..59");
        }
        if (Integer.parseInt(m.group("second")) > 59) {
          throw new LoadError("ValueError", false, "second must be in 0..59");
        }
      }
      return new Timestamp(text);
    }

    /** Python dict key equality: {@code 1 == 1.0 == True}, {@code 0 == False}; strings by text. */
    private static Object canonicalKey(@Nullable Object key) {
      if (key == null) {
        return NONE;
      }
      BigDecimal number = null;
      if (key instanceof Boolean b) {
        number = BigDecimal.valueOf(b ? 1 : 0);
      } else if (key instanceof BigInteger i) {
        number = new BigDecimal(i);
      } else if (key instanceof Double d) {
        if (d.isNaN()) {
          return new Object(); // nan != nan: every NaN key is its own
        }
        if (d.isInfinite()) {
          return d;
        }
        number = BigDecimal.valueOf(d);
      }
      if (number == null) {
        return key;
      }
      return number.signum() == 0 ? BigDecimal.ZERO : number.stripTrailingZeros();
    }

    private static final Object NONE = new Object();
  }
}
