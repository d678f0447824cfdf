package io.infx.client.chat.internal;

import java.util.List;

/** The syntax tree of a Jinja template: statements ({@link Stmt}) and expressions ({@link Expr}). */
final class Node {

  private Node() {}

  sealed interface Stmt permits Text, Output, If, For, Set, SetBlock, Macro, CallBlock, FilterBlock,
      Break, Continue, ExprStmt {}

  record Text(String text) implements Stmt {}

  record Output(Expr expr, int line) implements Stmt {}

  record If(Expr test, List<Stmt> body, List<Stmt> orElse) implements Stmt {}

  record For(Expr target, Expr iter, Expr filter, List<Stmt> body, List<Stmt> orElse,
      int line) implements Stmt {}

  /** {@code set a = x}, {@code set a, b = x} or {@code set ns.attr = x}. */
  record Set(Expr target, Expr value, int line) implements Stmt {}

  record SetBlock(String name, List<Stmt> body, Expr filter) implements Stmt {}

  record Macro(String name, List<String> params, List<Expr> defaults, List<Stmt> body)
      implements Stmt {}

  /** {@code {% call m(args) %}body{% endcall %}} and transformers' {@code {% generation %}}. */
  record CallBlock(Expr call, List<Stmt> body) implements Stmt {}

  record FilterBlock(Expr filter, List<Stmt> body) implements Stmt {}

  record Break() implements Stmt {}

  record Continue() implements Stmt {}

  /** {@code {% do expr %}}. */
  record ExprStmt(Expr expr) implements Stmt {}

  sealed interface Expr permits Const, Name, TupleLit, ListLit, DictLit, GetAttr, GetItem, Slice,
      Call, FilterCall, Test, Unary, Binary, And, Or, Not, Compare, Cond {}

  record Const(Object value) implements Expr {}

  record Name(String name, int line) implements Expr {}

  record TupleLit(List<Expr> items) implements Expr {}

  record ListLit(List<Expr> items) implements Expr {}

  record DictLit(List<Expr> keys, List<Expr> values) implements Expr {}

  record GetAttr(Expr obj, String attr, int line) implements Expr {}

  record GetItem(Expr obj, Expr key, int line) implements Expr {}

  record Slice(Expr start, Expr stop, Expr step) implements Expr {}

  record Call(Expr fn, List<Expr> args, List<String> kwNames, List<Expr> kwValues, int line)
      implements Expr {}

  /** {@code value | name(args)}; {@code value} is null inside a {@code {% filter %}} block. */
  record FilterCall(Expr value, String name, List<Expr> args, List<String> kwNames,
      List<Expr> kwValues, int line) implements Expr {}

  record Test(Expr value, String name, List<Expr> args, boolean negated, int line) implements Expr {}

  record Unary(String op, Expr operand) implements Expr {}

  record Binary(String op, Expr left, Expr right, int line) implements Expr {}

  record And(Expr left, Expr right) implements Expr {}

  record Or(Expr left, Expr right) implements Expr {}

  record Not(Expr operand) implements Expr {}

  /** A chain {@code a < b <= c}: ops are {@code == != < > <= >= in notin}. */
  record Compare(Expr first, List<String> ops, List<Expr> rest, int line) implements Expr {}

  /** {@code a if test else b}; {@code orElse} null renders as undefined. */
  record Cond(Expr test, Expr then, Expr orElse) implements Expr {}
}
