// The address rule lives in @gatehouse/outbound (identity providers judge by the same list).
export { isPrivateAddress } from "@gatehouse/outbound";
