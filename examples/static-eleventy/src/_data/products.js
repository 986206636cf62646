// Your catalogue: in a real shop, from your database or CMS.
export default [
  { id: 'SKU-001', name: 'Merino Wool Sweater', description: 'A warm crew-neck sweater.', price: 89 },
  { id: 'SKU-002', name: 'Linen Shirt', description: 'A light shirt for summer.', price: 59 },
  { id: 'SKU-003', name: 'Canvas Sneakers', description: 'Everyday sneakers.', price: 75 },
]
