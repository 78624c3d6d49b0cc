// A select config option (as an agent advertises it) with one choice, named after its id.
export const selectOption = (id: string, category: string) => ({
  id,
  name: id,
  category,
  type: 'select',
  currentValue: 'a',
  options: [{ value: 'a', name: 'A' }],
});
