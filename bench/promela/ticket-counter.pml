/*
 * Promela twin of bench/specs/ticket-counter.gpu on the baseline machine
 * (partitions = 1).  Its state graph is isomorphic to gpumc's, so SPIN
 * (spin -o3, pan -DSAFETY -DNOREDUCE) stores exactly as many states as
 * gpumc reports.  Same construction as lane-reduction.pml:
 *
 *   - one Promela statement (or d_step) per warp-instruction, and statement
 *     merging off (spin -o3), so each warp step is one SPIN transition;
 *   - registers kept as per-warp values from which every lane's register
 *     is a function: the tickets taken so far (tk[], one per lane, 0 until
 *     taken, as %r1), the loop counter, the accumulator of lane r2;
 *   - one FIFO channel per SM (gpumc's per SM x partition FIFO) holding one
 *     entry per lane, (warp, lane), in arrival order; its capacity is
 *     icnt_queue (0: twice the lanes), and a full channel blocks the send as
 *     gpumc's back-pressure keeps the warp from issuing;
 *   - one ROP process per FIFO: performing the head entry returns the old
 *     counter to that lane and increments the counter; the atom's warp
 *     waits (ATOMIC) until its entry was performed, and that wait is merged
 *     into its next instruction;
 *   - processes never terminate (they block at an end label after exit).
 *
 * Parameters (spin -DNAME=value): CTAS, WPC (warps_per_cta),
 * T (threads_per_warp), S (sms), Q (icnt_queue, 0 = 2*T).
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
#ifndef Q
#define Q 0
#endif
#define W    (CTAS * WPC)
#if Q > 0
#define QCAP Q
#else
#define QCAP (2 * T)                        /* gpumc: icnt_queue 0 = twice the lanes */
#endif
#define SM(w) (((w) / WPC) % S)

int  next;
chan fifo[S] = [QCAP] of { byte, byte };
bool ack[W];
int  tk[W * T];        /* %r1 of every lane: its ticket once taken */

active [W] proctype warp()
{
	int  r3, r4, p0;      /* r3, r4 of lane r2; p0: lane mask of the turn */
	byte r2, r5;          /* loop counter; lanes per warp                 */
	bool p1, done;

	r5 = T;                                        /* div.u32 %r5, %ntid, %nwarpid */
	r4 = _pid * T * 7;                             /* mul.lo.u32 %r4, %gtid, 7     */
	do
	:: p0 = 1 << r2                                /* setp.eq %p0, %laneid, %r2    */
	   fifo[SM(_pid)]!_pid, r2                     /* @%p0 atom.global.add         */
	   d_step { ack[_pid]; ack[_pid] = 0;          /* (ROP done)                   */
	            r3 = tk[_pid * T + r2] * 3 }       /* mul.lo.u32 %r3, %r1, 3       */
	   r4 = r4 + r3                                /* add.u32 %r4, %r4, %r3        */
	   r2++                                        /* add.u32 %r2, %r2, 1          */
	   p1 = (r2 < r5)                              /* setp.lt %p1, %r2, %r5        */
	   if
	   :: p1                                       /* @%p1 bra LOOP: taken         */
	   :: !p1 -> break                             /*   not taken                 */
	   fi
	od;
	done = 1;                                      /* exit                         */
end:	false
}

active [S] proctype rop()
{
	byte w, l;
end:	do
	:: d_step { fifo[_pid - W]?w, l -> tk[w * T + l] = next; next++; ack[w] = 1; w = 0; l = 0 }
	od
}
