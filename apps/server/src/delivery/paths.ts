// Names of delivery the server's edge uses outside the router (the fast lane's metrics label).

/** The metrics label of every delivery request. */
export const DELIVERY_ROUTE = 'delivery'
