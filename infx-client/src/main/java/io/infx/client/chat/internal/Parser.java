package io.infx.client.chat.internal;

import io.infx.client.chat.internal.Node.*;
import io.infx.client.chat.internal.Token.Kind;
import java.util.ArrayList;
import java.util.List;

/** Recursive-descent parser with jinja2's grammar and operator precedence. */
final class Parser {

  private final List<Token> toks;
  private int p;

  private Parser(List<Token> toks) {
    this.toks = toks;
  }

  static List<Stmt> parse(String source) {
    Parser ps = new Parser(Lexer.tokenize(source));
    List<Stmt> body = ps.parseBody();
    if (ps.peek().kind() != Kind.EOF) {
      Token t = ps.peek();
      throw ps.error("unexpected '" + ps.peekAt(1).text() + "' tag", t);
    }
    return body;
  }

  // ---- statements -------------------------------------------------------------------------

  /** Parses until EOF or a block tag whose name is one of {@code enders} (not consumed). */
  private List<Stmt> parseBody(String... enders) {
    List<Stmt> out = new ArrayList<>();
    while (true) {
      Token t = peek();
      switch (t.kind()) {
        case EOF -> {
          if (enders.length > 0) {
            throw error("unexpected end of template; jinja was looking for '"
                + String.join("' or '", enders) + "'", t);
          }
          return out;
        }
        case TEXT -> {
          next();
          out.add(new Text(t.text()));
        }
        case VAR_BEGIN -> {
          next();
          Expr e = parseTuple();
          expect(Kind.VAR_END);
          out.add(new Output(e, t.line()));
        }
        case BLOCK_BEGIN -> {
          Token name = peekAt(1);
          if (name.kind() != Kind.NAME) {
            throw error("tag name expected", name);
          }
          for (String e : enders) {
            if (name.text().equals(e)) {
              return out;
            }
          }
          next();
          next();
          out.add(parseStatement(name));
        }
        default -> throw error("unexpected " + t, t);
      }
    }
  }

  private Stmt parseStatement(Token name) {
    switch (name.text()) {
      case "if":
        return parseIf();
      case "for":
        return parseFor(name);
      case "set":
        return parseSet(name);
      case "macro":
        return parseMacro();
      case "call":
        return parseCallBlock(name);
      case "filter":
        return parseFilterBlock(name);
      case "generation": {
        expect(Kind.BLOCK_END);
        List<Stmt> body = parseBody("endgeneration");
        endTag("endgeneration");
        return new CallBlock(null, body);
      }
      case "break":
        expect(Kind.BLOCK_END);
        return new Break();
      case "continue":
        expect(Kind.BLOCK_END);
        return new Continue();
      case "do": {
        Expr e = parseTuple();
        expect(Kind.BLOCK_END);
        return new ExprStmt(e);
      }
      default:
        throw error("encountered unknown tag '" + name.text() + "'", name);
    }
  }

  private void endTag(String name) {
    expect(Kind.BLOCK_BEGIN);
    Token t = next();
    if (!t.isName(name)) {
      throw error("expected '" + name + "', got " + t, t);
    }
    expect(Kind.BLOCK_END);
  }

  private Stmt parseIf() {
    Expr test = parseTuple();
    expect(Kind.BLOCK_END);
    List<Stmt> body = parseBody("elif", "else", "endif");
    expect(Kind.BLOCK_BEGIN);
    Token t = next();
    List<Stmt> orElse = new ArrayList<>();
    switch (t.text()) {
      case "elif" -> orElse.add(parseIf());
      case "else" -> {
        expect(Kind.BLOCK_END);
        orElse = parseBody("endif");
        endTag("endif");
      }
      default -> expect(Kind.BLOCK_END);
    }
    return new If(test, body, orElse);
  }

  private Stmt parseFor(Token start) {
    Expr target = parseAssignTarget();
    Token in = next();
    if (!in.isName("in")) {
      throw error("expected 'in', got " + in, in);
    }
    Expr iter = parseTupleNoCond();
    Expr filter = null;
    if (peek().isName("if")) {
      next();
      filter = parseExpression();
    }
    if (peek().isName("recursive")) {
      throw error("recursive for loops are not supported", peek());
    }
    expect(Kind.BLOCK_END);
    List<Stmt> body = parseBody("else", "endfor");
    List<Stmt> orElse = List.of();
    expect(Kind.BLOCK_BEGIN);
    Token t = next();
    if (t.isName("else")) {
      expect(Kind.BLOCK_END);
      orElse = parseBody("endfor");
      endTag("endfor");
    } else {
      expect(Kind.BLOCK_END);
    }
    return new For(target, iter, filter, body, orElse, start.line());
  }

  private Expr parseAssignTarget() {
    List<Expr> names = new ArrayList<>();
    boolean tuple = false;
    while (true) {
      Token t = next();
      if (t.kind() != Kind.NAME) {
        throw error("can't assign to " + t, t);
      }
      Expr target = new Name(t.text(), t.line());
      if (peek().isOp(".")) {
        next();
        Token attr = next();
        target = new GetAttr(target, attr.text(), attr.line());
      }
      names.add(target);
      if (!peek().isOp(",")) {
        break;
      }
      next();
      tuple = true;
    }
    return tuple ? new TupleLit(names) : names.get(0);
  }

  private Stmt parseSet(Token start) {
    Expr target = parseAssignTarget();
    if (peek().isOp("=")) {
      next();
      Expr value = parseTuple();
      expect(Kind.BLOCK_END);
      return new Set(target, value, start.line());
    }
    if (!(target instanceof Name n)) {
      throw error("block set needs a plain name", start);
    }
    Expr filter = null;
    if (peek().isOp("|")) {
      filter = parseFilters(null);
    }
    expect(Kind.BLOCK_END);
    List<Stmt> body = parseBody("endset");
    endTag("endset");
    return new SetBlock(n.name(), body, filter);
  }

  private Stmt parseMacro() {
    Token name = next();
    expect(Kind.OP, "(");
    List<String> params = new ArrayList<>();
    List<Expr> defaults = new ArrayList<>();
    while (!peek().isOp(")")) {
      if (!params.isEmpty()) {
        expect(Kind.OP, ",");
        if (peek().isOp(")")) {
          break;
        }
      }
      Token pn = next();
      params.add(pn.text());
      if (peek().isOp("=")) {
        next();
        defaults.add(parseExpression());
      } else if (!defaults.isEmpty()) {
        throw error("non-default argument follows default argument", pn);
      }
    }
    next();
    expect(Kind.BLOCK_END);
    List<Stmt> body = parseBody("endmacro");
    endTag("endmacro");
    return new Macro(name.text(), params, defaults, body);
  }

  private Stmt parseCallBlock(Token start) {
    Expr call = parseExpression();
    if (!(call instanceof Call)) {
      throw error("expected a call", start);
    }
    expect(Kind.BLOCK_END);
    List<Stmt> body = parseBody("endcall");
    endTag("endcall");
    return new CallBlock(call, body);
  }

  private Stmt parseFilterBlock(Token start) {
    Expr filter = parseFilters(parseOneFilter(null));
    expect(Kind.BLOCK_END);
    List<Stmt> body = parseBody("endfilter");
    endTag("endfilter");
    return new FilterBlock(filter, body);
  }

  // ---- expressions ------------------------------------------------------------------------

  /** An expression, or a bare tuple {@code a, b}. */
  private Expr parseTuple() {
    Expr first = parseExpression();
    if (!peek().isOp(",")) {
      return first;
    }
    List<Expr> items = new ArrayList<>(List.of(first));
    while (peek().isOp(",")) {
      next();
      if (endsTuple()) {
        break;
      }
      items.add(parseExpression());
    }
    return new TupleLit(items);
  }

  private Expr parseTupleNoCond() {
    Expr first = parseOr();
    if (!peek().isOp(",")) {
      return first;
    }
    List<Expr> items = new ArrayList<>(List.of(first));
    while (peek().isOp(",")) {
      next();
      if (endsTuple()) {
        break;
      }
      items.add(parseOr());
    }
    return new TupleLit(items);
  }

  private boolean endsTuple() {
    Token t = peek();
    return t.kind() == Kind.VAR_END || t.kind() == Kind.BLOCK_END || t.isOp(")")
        || t.isOp("]") || t.isOp("}") || t.isOp("=") || t.isName("if");
  }

  private Expr parseExpression() {
    Expr e = parseOr();
    if (peek().isName("if")) {
      next();
      Expr test = parseOr();
      Expr orElse = null;
      if (peek().isName("else")) {
        next();
        orElse = parseExpression();
      }
      return new Cond(test, e, orElse);
    }
    return e;
  }

  private Expr parseOr() {
    Expr l = parseAnd();
    while (peek().isName("or")) {
      next();
      l = new Or(l, parseAnd());
    }
    return l;
  }

  private Expr parseAnd() {
    Expr l = parseNot();
    while (peek().isName("and")) {
      next();
      l = new And(l, parseNot());
    }
    return l;
  }

  private Expr parseNot() {
    if (peek().isName("not")) {
      next();
      return new Not(parseNot());
    }
    return parseCompare();
  }

  private Expr parseCompare() {
    int line = peek().line();
    Expr first = parseMath1();
    List<String> ops = new ArrayList<>();
    List<Expr> rest = new ArrayList<>();
    while (true) {
      Token t = peek();
      if (t.kind() == Kind.OP && List.of("==", "!=", "<", ">", "<=", ">=").contains(t.text())) {
        next();
        ops.add(t.text());
      } else if (t.isName("in")) {
        next();
        ops.add("in");
      } else if (t.isName("not") && peekAt(1).isName("in")) {
        next();
        next();
        ops.add("notin");
      } else {
        break;
      }
      rest.add(parseMath1());
    }
    return ops.isEmpty() ? first : new Compare(first, ops, rest, line);
  }

  private Expr parseMath1() {
    Expr l = parseConcat();
    while (peek().isOp("+") || peek().isOp("-")) {
      Token op = next();
      l = new Binary(op.text(), l, parseConcat(), op.line());
    }
    return l;
  }

  private Expr parseConcat() {
    Expr l = parseMath2();
    while (peek().isOp("~")) {
      Token op = next();
      l = new Binary("~", l, parseMath2(), op.line());
    }
    return l;
  }

  private Expr parseMath2() {
    Expr l = parsePow();
    while (peek().isOp("*") || peek().isOp("/") || peek().isOp("//") || peek().isOp("%")) {
      Token op = next();
      l = new Binary(op.text(), l, parsePow(), op.line());
    }
    return l;
  }

  private Expr parsePow() {
    Expr l = parseUnary(true);
    while (peek().isOp("**")) {
      Token op = next();
      l = new Binary("**", l, parseUnary(true), op.line());
    }
    return l;
  }

  private Expr parseUnary(boolean withFilter) {
    Token t = peek();
    Expr node;
    if (t.isOp("-") || t.isOp("+")) {
      next();
      node = new Unary(t.text(), parseUnary(false));
    } else {
      node = parsePostfix(parsePrimary());
    }
    return withFilter ? parseFilterExpr(node) : node;
  }

  private Expr parsePrimary() {
    Token t = next();
    switch (t.kind()) {
      case NAME -> {
        return switch (t.text()) {
          case "true", "True" -> new Const(Boolean.TRUE);
          case "false", "False" -> new Const(Boolean.FALSE);
          case "none", "None" -> new Const(null);
          default -> new Name(t.text(), t.line());
        };
      }
      case STRING -> {
        StringBuilder sb = new StringBuilder(t.text());
        while (peek().kind() == Kind.STRING) {
          sb.append(next().text());
        }
        return new Const(sb.toString());
      }
      case INT -> {
        return new Const(Long.parseLong(t.text()));
      }
      case FLOAT -> {
        return new Const(Double.parseDouble(t.text()));
      }
      case OP -> {
        switch (t.text()) {
          case "(" -> {
            if (peek().isOp(")")) {
              next();
              return new TupleLit(List.of());
            }
            Expr e = parseExpression();
            if (peek().isOp(",")) {
              List<Expr> items = new ArrayList<>(List.of(e));
              while (peek().isOp(",")) {
                next();
                if (peek().isOp(")")) {
                  break;
                }
                items.add(parseExpression());
              }
              e = new TupleLit(items);
            }
            expect(Kind.OP, ")");
            return e;
          }
          case "[" -> {
            List<Expr> items = new ArrayList<>();
            while (!peek().isOp("]")) {
              if (!items.isEmpty()) {
                expect(Kind.OP, ",");
                if (peek().isOp("]")) {
                  break;
                }
              }
              items.add(parseExpression());
            }
            next();
            return new ListLit(items);
          }
          case "{" -> {
            List<Expr> keys = new ArrayList<>();
            List<Expr> values = new ArrayList<>();
            while (!peek().isOp("}")) {
              if (!keys.isEmpty()) {
                expect(Kind.OP, ",");
                if (peek().isOp("}")) {
                  break;
                }
              }
              keys.add(parseExpression());
              expect(Kind.OP, ":");
              values.add(parseExpression());
            }
            next();
            return new DictLit(keys, values);
          }
          default -> throw error("unexpected " + t, t);
        }
      }
      default -> throw error("unexpected " + t, t);
    }
  }

  private Expr parsePostfix(Expr node) {
    while (true) {
      Token t = peek();
      if (t.isOp(".")) {
        next();
        Token attr = next();
        if (attr.kind() == Kind.NAME) {
          node = new GetAttr(node, attr.text(), attr.line());
        } else if (attr.kind() == Kind.INT) {
          node = new GetItem(node, new Const(Long.parseLong(attr.text())), attr.line());
        } else {
          throw error("expected name or number", attr);
        }
      } else if (t.isOp("[")) {
        next();
        node = new GetItem(node, parseSubscript(), t.line());
        expect(Kind.OP, "]");
      } else if (t.isOp("(")) {
        node = parseCall(node);
      } else {
        return node;
      }
    }
  }

  private Expr parseSubscript() {
    Expr start = null;
    if (!peek().isOp(":")) {
      start = parseExpression();
      if (!peek().isOp(":")) {
        return start;
      }
    }
    next();
    Expr stop = null;
    Expr step = null;
    if (!peek().isOp("]") && !peek().isOp(":")) {
      stop = parseExpression();
    }
    if (peek().isOp(":")) {
      next();
      if (!peek().isOp("]")) {
        step = parseExpression();
      }
    }
    return new Slice(start, stop, step);
  }

  private Call parseCall(Expr fn) {
    Token open = expect(Kind.OP, "(");
    List<Expr> args = new ArrayList<>();
    List<String> kwNames = new ArrayList<>();
    List<Expr> kwValues = new ArrayList<>();
    parseArgs(args, kwNames, kwValues);
    return new Call(fn, args, kwNames, kwValues, open.line());
  }

  /** After '(': positional and keyword arguments up to and including ')'. */
  private void parseArgs(List<Expr> args, List<String> kwNames, List<Expr> kwValues) {
    boolean first = true;
    while (!peek().isOp(")")) {
      if (!first) {
        expect(Kind.OP, ",");
        if (peek().isOp(")")) {
          break;
        }
      }
      first = false;
      if (peek().kind() == Kind.NAME && peekAt(1).isOp("=")) {
        kwNames.add(next().text());
        next();
        kwValues.add(parseExpression());
      } else {
        args.add(parseExpression());
      }
    }
    next();
  }

  private Expr parseFilterExpr(Expr node) {
    while (true) {
      if (peek().isOp("|")) {
        node = parseFilters(node);
      } else if (peek().isName("is")) {
        node = parseTest(node);
      } else if (peek().isOp("(")) {
        node = parseCall(node);
      } else {
        return node;
      }
    }
  }

  private Expr parseFilters(Expr node) {
    while (peek().isOp("|")) {
      next();
      node = parseOneFilter(node);
    }
    return node;
  }

  /** A filter name and its optional arguments (the {@code |} already consumed). */
  private Expr parseOneFilter(Expr node) {
    {
      Token name = next();
      String fname = name.text();
      while (peek().isOp(".")) {
        next();
        fname += "." + next().text();
      }
      List<Expr> args = new ArrayList<>();
      List<String> kwNames = new ArrayList<>();
      List<Expr> kwValues = new ArrayList<>();
      if (peek().isOp("(")) {
        next();
        parseArgs(args, kwNames, kwValues);
      }
      return new FilterCall(node, fname, args, kwNames, kwValues, name.line());
    }
  }

  private Expr parseTest(Expr node) {
    Token is = next();
    boolean negated = false;
    if (peek().isName("not")) {
      next();
      negated = true;
    }
    Token name = next();
    String tname = name.text();
    if (name.kind() != Kind.NAME) {
      // "is none"/"is true" arrive as names; anything else is an error
      throw error("expected test name, got " + name, name);
    }
    List<Expr> args = new ArrayList<>();
    if (peek().isOp("(")) {
      next();
      List<String> kwNames = new ArrayList<>();
      List<Expr> kwValues = new ArrayList<>();
      parseArgs(args, kwNames, kwValues);
    } else if (startsBareTestArg(peek())) {
      Expr arg = parsePostfix(parsePrimary());
      args.add(arg);
    }
    return new Test(node, tname, args, negated, is.line());
  }

  /** jinja2 lets a test take one argument without parentheses ({@code is divisibleby 3}). */
  private static boolean startsBareTestArg(Token t) {
    return switch (t.kind()) {
      case STRING, INT, FLOAT -> true;
      case NAME -> !List.of("else", "or", "and", "if", "in", "not", "is").contains(t.text());
      case OP -> t.text().equals("[") || t.text().equals("{");
      default -> false;
    };
  }

  // ---- tokens -----------------------------------------------------------------------------

  private Token peek() {
    return toks.get(p);
  }

  private Token peekAt(int k) {
    return toks.get(Math.min(p + k, toks.size() - 1));
  }

  private Token next() {
    Token t = toks.get(p);
    if (t.kind() != Kind.EOF) {
      p++;
    }
    return t;
  }

  private Token expect(Kind k) {
    Token t = next();
    if (t.kind() != k) {
      throw error("expected " + describe(k) + ", got " + t, t);
    }
    return t;
  }

  private Token expect(Kind k, String text) {
    Token t = next();
    if (t.kind() != k || !t.text().equals(text)) {
      throw error("expected '" + text + "', got " + t, t);
    }
    return t;
  }

  private static String describe(Kind k) {
    return switch (k) {
      case VAR_END -> "'}}'";
      case BLOCK_END -> "'%}'";
      case BLOCK_BEGIN -> "'{%'";
      default -> k.name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private TemplateError error(String msg, Token at) {
    return new TemplateError(msg + " (line " + at.line() + ", column " + at.col() + ")", at.line());
  }
}
