// A tiny module for agents to read, explain and change.

/** Greets someone by name. */
export function greet(name) {
  // TODO: greet "world" when no name is given, instead of "Hello, undefined!".
  return `Hello, ${name}!`;
}

/** Greets everyone in the list, one line each. */
export function greetAll(names) {
  return names.map(greet).join('\n');
}
