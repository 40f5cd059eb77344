/** Domain types of the callbacks module that others (the control API's dashboard) name. */

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed';

/** Which deliveries a list asks for. */
export interface DeliveryFilter {
  invoice_id?: string;
  merchant_id?: string;
  event?: string;
  status?: DeliveryStatus;
}
