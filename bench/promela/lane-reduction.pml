/*
 * Promela twin of bench/specs/lane-reduction.gpu on the baseline machine
 * (partitions = 1).  Its state graph is isomorphic to gpumc's, so SPIN
 * (-DSAFETY -DNOREDUCE) stores exactly as many states as gpumc reports:
 *
 *   - one d_step per warp-instruction (pc0..pc7 of the kernel), so a warp
 *     step is one SPIN transition and no intermediate state is stored;
 *   - registers are kept as one value per warp (every lane's value is a
 *     function of it), predicates likewise;
 *   - one FIFO channel per SM holding (warp, value) in arrival order, and
 *     one ROP process per FIFO: performing the head request adds the value
 *     and releases the warp (ack), which gpumc does in the same step by
 *     moving the warp past its red (status ATOMIC -> READY at pc+1);
 *   - the warp's wait for the ack is merged into its next instruction;
 *   - processes never terminate (they block at an end label after exit),
 *     so SPIN's process-deletion steps add no states.
 *
 * Parameters (pass as spin -DNAME=value): CTAS, WPC (warps_per_cta),
 * T (threads_per_warp), S (sms).
 */
#ifndef CTAS
#define CTAS 2
#endif
#ifndef WPC
#define WPC 1
#endif
#ifndef T
#define T 2
#endif
#ifndef S
#define S 2
#endif
#define W    (CTAS * WPC)
#define QCAP (((CTAS + S - 1) / S) * WPC)   /* warps resident on one SM */
#define SM(w) (((w) / WPC) % S)

int  sum;
chan fifo[S] = [QCAP] of { byte, int };
bool ack[W];

active [W] proctype warp()
{
	int  r1, p0;          /* r1: lane 0's value; p0: lane mask of the turn */
	byte r2, r3;          /* r2: loop counter;   r3: lanes per warp        */
	bool p1, done;

	r1 = _pid * T + 1;                             /* add.u32 %r1, %gtid, 1   */
	r3 = T;                                        /* div.u32 %r3, %ntid, ... */
	do
	:: p0 = 1 << r2                                /* setp.eq %p0, %laneid, %r2 */
	   fifo[SM(_pid)]!_pid, r1 + r2                /* @%p0 red.global.add     */
	   d_step { ack[_pid]; ack[_pid] = 0; r2++ }   /* (ROP done) add %r2      */
	   p1 = (r2 < r3)                              /* setp.lt %p1, %r2, %r3   */
	   if
	   :: p1                                       /* @%p1 bra LOOP: taken    */
	   :: !p1 -> break                             /*   not taken            */
	   fi
	od;
	done = 1;                                      /* exit                    */
end:	false
}

active [S] proctype rop()
{
	byte w;
	int  v;
end:	do
	:: d_step { fifo[_pid - W]?w, v -> sum = sum + v; ack[w] = 1; w = 0; v = 0 }
	od
}
