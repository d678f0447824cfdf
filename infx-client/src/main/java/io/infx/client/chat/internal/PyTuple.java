package io.infx.client.chat.internal;

import java.util.AbstractList;
import java.util.List;

/** An immutable Python tuple (rendered with parentheses; equal to nothing but tuples). */
final class PyTuple extends AbstractList<Object> {
  final List<Object> items;

  PyTuple(List<Object> items) {
    this.items = items;
  }

  @Override
  public Object get(int index) {
    return items.get(index);
  }

  @Override
  public int size() {
    return items.size();
  }
}
