/// The fake store API's data, in fakestoreapi.com's exact JSON shapes.
enum FakeStoreData {
  /// The catalog `GET /products` answers by default: fakestoreapi.com's
  /// products 1–3 verbatim, plus product 21, which the real catalog (ids
  /// 1–20) lacks, so a test can tell a fetched catalog from a bundled copy of
  /// the real one.
  static let defaultProductsJSON = #"""
    [{"id":1,"title":"Fjallraven - Foldsack No. 1 Backpack, Fits 15 Laptops","price":109.95,"description":"Your perfect pack for everyday use and walks in the forest. Stash your laptop (up to 15 inches) in the padded sleeve, your everyday","category":"men's clothing","image":"https://fakestoreapi.com/img/81fPKd-2AYL._AC_SL1500_.jpg","rating":{"rate":3.9,"count":120}},
    {"id":2,"title":"Mens Casual Premium Slim Fit T-Shirts ","price":22.3,"description":"Slim-fitting style, contrast raglan long sleeve, three-button henley placket, light weight & soft fabric for breathable and comfortable wearing. And Solid stitched shirts with round neck made for durability and a great fit for casual fashion wear and diehard baseball fans. The Henley style round neckline includes a three-button placket.","category":"men's clothing","image":"https://fakestoreapi.com/img/71-3HjGNDUL._AC_SY879._SX._UX._SY._UY_.jpg","rating":{"rate":4.1,"count":259}},
    {"id":3,"title":"Mens Cotton Jacket","price":55.99,"description":"great outerwear jackets for Spring/Autumn/Winter, suitable for many occasions, such as working, hiking, camping, mountain/rock climbing, cycling, traveling or other outdoors. Good gift choice for you or your family member. A warm hearted love to Father, husband or son in this thanksgiving or Christmas Day.","category":"men's clothing","image":"https://fakestoreapi.com/img/71li-ujtlUL._AC_UX679_.jpg","rating":{"rate":4.7,"count":500}},
    {"id":21,"title":"Fake Store Test Mug","price":4.5,"description":"Only the fake store API sells this mug, so a catalog holding it was fetched from the fake.","category":"electronics","image":"https://fakestoreapi.com/img/fake-store-test-mug.jpg","rating":{"rate":5,"count":1}}]
    """#

  /// fakestoreapi.com's users 1 and 2, verbatim (`GET /users/{id}`), with the
  /// fields a client must ignore (`address`, `password`, `__v`).
  static let usersJSON: [Int: String] = [
    1: #"""
    {"address":{"geolocation":{"lat":"-37.3159","long":"81.1496"},"city":"kilcoole","street":"new road","number":7682,"zipcode":"12926-3874"},"id":1,"email":"john@gmail.com","username":"johnd","password":"m38rmF$","name":{"firstname":"john","lastname":"doe"},"phone":"1-570-236-7033","__v":0}
    """#,
    2: #"""
    {"address":{"geolocation":{"lat":"-37.3159","long":"81.1496"},"city":"kilcoole","street":"Lovers Ln","number":7267,"zipcode":"12926-3874"},"id":2,"email":"morrison@gmail.com","username":"mor_2314","password":"83r5^_","name":{"firstname":"david","lastname":"morrison"},"phone":"1-570-236-7033","__v":0}
    """#,
  ]

  /// fakestoreapi.com holds carts 1–10, so a new cart is number 11.
  static let firstCartID = 11
}
