package io.infx.core.tree;

import io.infx.core.Location;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A sequence of nodes, in document order. */
public final class ListNode implements Node {

  private final String pointer;
  private final Location location;
  private final List<Node> items;

  public ListNode(String pointer, Location location, List<Node> items) {
    this.pointer = Objects.requireNonNull(pointer, "pointer");
    this.location = Objects.requireNonNull(location, "location");
    this.items = List.copyOf(items);
  }

  public List<Node> items() {
    return items;
  }

  public int size() {
    return items.size();
  }

  public Node get(int index) {
    return items.get(index);
  }

  @Override
  public String pointer() {
    return pointer;
  }

  @Override
  public Location location() {
    return location;
  }

  @Override
  public String typeName() {
    return "list";
  }

  @Override
  public Object toPlain() {
    List<Object> out = new ArrayList<>(items.size());
    for (Node n : items) {
      out.add(n.toPlain());
    }
    return out;
  }

  @Override
  public String toString() {
    return location + " list[" + items.size() + "]";
  }
}
