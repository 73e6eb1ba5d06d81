/* mem_enc_nums.h - the encoder's cases of numbers and bools (c_RUN,
 * c_VI32, c_VI64, c_BOOL, c_ENUM, c_F32, c_F64), included inside the
 * struct loops of mem_enc_loop.h and mem_enc.c's fields_flat: each writes
 * op o's value (at p, or the run from o) at q, where room was reserved,
 * and goes on with NEXT (a run of another case: the label slow). bmi2:
 * enc_bmi2. */
c_RUN:
  if (o->x == MX_VI32 || o->x == MX_VI64) {
    q = put_run(o, base, q, bmi2);
    o += o->drun - 1;
    NEXT;
  }
  goto slow;
c_VI32: {
  int32_t v;
  memcpy(&v, p, 4);
  q = put_vu32(q, wire__zz32(v), bmi2);
  NEXT;
}
c_VI64: {
  int64_t v;
  memcpy(&v, p, 8);
  q = put_vu64(q, wire__zz64(v), bmi2);
  NEXT;
}
c_BOOL: *q++ = *p ? 1 : 0; NEXT;
c_ENUM: {
  uint32_t v;
  memcpy(&v, p, 4);
  q = put_vu32(q, v, bmi2);
  NEXT;
}
c_F32: memcpy(q, p, 4); q += 4; NEXT;
c_F64: memcpy(q, p, 8); q += 8; NEXT;
