/*
 * Promela twin of bench/specs/lane-reduction.gpu on gpumc's baseline
 * machine (partitions = 1).  Its state graph is isomorphic to gpumc's, so
 * SPIN (spin -o3; pan -DSAFETY -DNOREDUCE) stores exactly as many states as
 * gpumc reports, at every size:
 *
 *   - one Promela statement per warp-instruction (pc0..pc7 of the kernel)
 *     and statement merging off (spin -o3), so a warp step is one SPIN
 *     transition, as in gpumc;
 *   - registers kept as one value per warp (every lane's register is a
 *     function of it), predicates likewise;
 *   - one FIFO channel per SM (gpumc's per SM x partition FIFO) holding one
 *     entry per lane in arrival order, (warp, value); its capacity is
 *     icnt_queue (0: twice the lanes), and a full channel blocks the send
 *     as gpumc's back-pressure keeps the warp from issuing;
 *   - red is fire and forget: the warp goes on after queueing its entry;
 *   - one ROP process per FIFO: performing the head entry adds its value;
 *   - processes never terminate (they block at an end label after exit),
 *     so SPIN's process-deletion steps add no states.
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

int  sum;
chan fifo[S] = [QCAP] of { byte, int };

active [W] proctype warp()
{
	int  r1, p0;          /* r1: lane 0's value; p0: lane mask of the turn */
	byte r2, r3;          /* r2: loop counter;   r3: lanes per warp        */
	bool p1, done;

	r1 = _pid * T + 1;                             /* add.u32 %r1, %gtid, 1     */
	r3 = T;                                        /* div.u32 %r3, %ntid, ...   */
	do
	:: p0 = 1 << r2                                /* setp.eq %p0, %laneid, %r2 */
	   fifo[SM(_pid)]!_pid, r1 + r2                /* @%p0 red.global.add       */
	   r2++                                        /* add.u32 %r2, %r2, 1       */
	   p1 = (r2 < r3)                              /* setp.lt %p1, %r2, %r3     */
	   if
	   :: p1                                       /* @%p1 bra LOOP: taken      */
	   :: !p1 -> break                             /*   not taken              */
	   fi
	od;
	done = 1;                                      /* exit                      */
end:	false
}

active [S] proctype rop()
{
	byte w;
	int  v;
end:	do
	:: d_step { fifo[_pid - W]?w, v -> sum = sum + v; w = 0; v = 0 }
	od
}
